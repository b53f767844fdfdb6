import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import pg from 'pg';
import { here, SLOWER, TARGETS } from './targets.js';
import { baselineService, benchDatabase, buildService, cpuFig, ratio, cpuPerRequest, freePort, median, PgBackendCpu, pgTrace, startBareBaseline, startProcess } from './support.js';

export const PROVIDER_KEY = 'sk-bench-provider-key';
export const MODEL = 'openai/gpt-4o-mini';
export const messages = [{ role: 'user', content: 'Say hello to the benchmark.' }];

export interface Target {
  url: string;
  body: string;
  /** Headers per connection (the service path gives each connection its own user). */
  headers: (connection: number) => Record<string, string>;
}

/**
 * The overhead of POST /api/ai/chat over calling the same local provider directly: the service
 * (compiled, in a child process, OPENAI_BASE_URL pointed at a fake OpenAI server in another child
 * process) against POST {fake}/v1/chat/completions with the equivalent body, streamed and not.
 * Concurrency 1: added latency at p50 and p99 from sequential requests timed to the microsecond,
 * each request another signed-in user (session cookie and CSRF token); an answer without the
 * provider's text counts as an error.
 * The same round measures POST /v1/chat/completions (the OpenAI-compatible edge over the same use
 * cases, each request another user's API key, OpenAI's body and chunks) on this build.
 * Concurrency 50: throughput ratio (service / direct) with autocannon, each connection a different
 * subscribed user (a real service's load is many users; one user's calls serialize on its usage
 * row by design). Medians of interleaved rounds.
 */
export async function benchAiChat(opts: { rounds: number; seconds: number; connections?: number; throughput?: boolean }) {
  const connections = opts.connections ?? 50;
  const measureThroughput = opts.throughput ?? true;
  const provider = fork('bench/fake-ai-provider.ts', [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, FAKE_API_KEY: PROVIDER_KEY },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const providerBase = await new Promise<string>((resolve, reject) => {
    provider.once('message', (m) => resolve((m as { baseUrl: string }).baseUrl));
    provider.once('exit', (code) => reject(new Error(`fake provider exited with ${code}`)));
  });
  // this build, and with BENCH_BASELINE_REF the baseline's: each with its own database and users
  const baseline = baselineService();
  const builds = [{ name: 'service', entry: buildService(), cwd: undefined as string | undefined }, ...(baseline ? [{ name: `baseline ${baseline.ref}`, entry: baseline.entry, cwd: baseline.cwd }] : [])];
  const services: { name: string; app: ChildProcess; drop: () => Promise<void>; dbName: string; dbUrl: string; base: string; sessions: Record<string, string>[]; callers: Record<string, string>[] }[] = [];
  let monitor: PgBackendCpu | undefined;
  let bare: Awaited<ReturnType<typeof startBareBaseline>> | undefined;
  try {
    for (const b of builds) {
      // a baseline's database is migrated by its own service (this build's migrations may be ahead of it)
      const db = await benchDatabase(b.cwd ? { prepare: false } : {});
      const port = await freePort();
      const app = await startProcess(b.entry, {
        DATABASE_URL: db.url, NODE_ENV: 'production', LOG_LEVEL: 'warn', SERVICE_ROLE: 'api',
        JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-bench', COOKIE_SECRET: 'bench-cookie-secret-bench-cookie-secret',
        ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), HOST: '127.0.0.1', APP_URL: `http://127.0.0.1:${port}`,
        RATE_LIMIT_AUTH: '1000000', RATE_LIMIT_CHAT: '100000000', OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: providerBase,
      }, port, b.cwd);
      const sessions: Record<string, string>[] = [];
      const base = `http://127.0.0.1:${port}`;
      services.push({ name: b.name, app, drop: db.drop, dbName: db.name, dbUrl: db.url, base, sessions, callers: [] });
      services.at(-1)!.callers = await makeCallers(base, db.url, connections, sessions);
    }
    // the bare baseline (bench/bare-baseline.mjs) in this run's own rounds, on the service's database:
    // each CPU figure below is also given as a ratio to its CPU per request
    const own = services[0]!;
    // each service's database may be its own embedded cluster: one monitoring connection each
    monitor = await PgBackendCpu.open(...services.map((x) => x.dbUrl));
    bare = await startBareBaseline(own.dbUrl, own.dbName, monitor);
    const direct = (stream: boolean): Target => ({
      url: `${providerBase}/chat/completions`,
      body: JSON.stringify({ model: 'gpt-4o-mini', messages, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) }),
      headers: () => ({ authorization: `Bearer ${PROVIDER_KEY}`, 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) }),
    });
    const byKey = (svc: (typeof services)[number], stream: boolean): Target => ({
      url: `${svc.base}/api/ai/chat`,
      body: JSON.stringify({ messages, model: MODEL }),
      headers: (i) => ({ ...svc.callers[i % svc.callers.length]!, 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) }),
    });
    // concurrency 1: each request another signed-in user (session cookie and CSRF token), as a browser calls it
    let nextSession = 0;
    const bySession = (svc: (typeof services)[number], stream: boolean): Target => ({
      url: `${svc.base}/api/ai/chat`,
      body: JSON.stringify({ messages, model: MODEL }),
      headers: () => ({ ...svc.sessions[nextSession++ % svc.sessions.length]!, 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) }),
    });

    // the OpenAI-compatible edge over the same call: OpenAI's body, the caller's API key (its only credential)
    let nextKey = 0;
    const byV1 = (svc: (typeof services)[number], stream: boolean): Target => ({
      url: `${svc.base}/v1/chat/completions`,
      body: JSON.stringify({ model: MODEL, messages, ...(stream ? { stream: true } : {}) }),
      headers: () => ({ authorization: svc.callers[nextKey++ % svc.callers.length]!.authorization!, 'content-type': 'application/json' }),
    });

    const results: Record<string, { p50: number[]; p99: number[]; rps: number[]; cpuUs: number[]; pgUs: number[]; errors: number }> = {};
    const add = (name: string) => (results[name] ??= { p50: [], p99: [], rps: [], cpuUs: [], pgUs: [], errors: 0 });
    const bareRounds: { rps: number; serviceUs: number; pgUs: number }[] = [];
    const bareC1Rounds: { count: number; serviceUs: number; pgUs: number }[] = [];
    // warm-up: every caller once (an API key's first use costs one bcrypt), then each path for a second
    for (const svc of services) {
      for (let i = 0; i < svc.callers.length; i++) await once({ ...byKey(svc, false), headers: () => byKey(svc, false).headers(i) }, new Agent());
    }
    for (const stream of [false, true]) {
      await sequential(direct(stream), 1);
      for (const svc of services) {
        await sequential(byKey(svc, stream), 1);
        await sequential(bySession(svc, stream), 1);
        if (svc.name === 'service') await sequential(byV1(svc, stream), 1);
      }
    }
    for (let round = 0; round < opts.rounds; round++) {
      // the bare baseline's round, interleaved with the paths' (2 s: tens of thousands of requests)
      bareRounds.push(await bare.round(Math.min(2000, opts.seconds * 1000)));
      bareC1Rounds.push(await bare.sequentialRound(Math.min(2000, opts.seconds * 1000)));
      for (const stream of [false, true]) {
        const mode = stream ? 'stream' : 'json';
        const own = services.find((x) => x.name === 'service')!;
        const paths = [
          ['direct', direct(stream), direct(stream)] as const,
          ...services.map((svc) => [svc.name, bySession(svc, stream), byKey(svc, stream)] as const),
          ['/v1', byV1(own, stream), byV1(own, stream)] as const,
        ];
        for (const [path, c1, c50] of paths) {
          const r = add(`${mode}:${path}`);
          const svc = path === '/v1' ? own : services.find((x) => x.name === path);
          const trace = svc && round === 0 ? pgTrace(svc.app) : null;
          trace?.reset();
          // the service's own CPU per request and its PostgreSQL backends' (from /proc): far less moved by the machine's other load than latency
          const lat = await cpuPerRequest(svc?.app.pid, svc ? monitor : undefined, svc ? [svc.dbName] : [], () => sequential(c1, opts.seconds));
          if (svc) {
            r.cpuUs.push(lat.serviceUs);
            r.pgUs.push(lat.pgUs);
          }
          await trace?.report(`${mode}:${path}, c=1`, path === '/v1' ? '/v1/chat/completions' : '/api/ai/chat');
          r.p50.push(lat.p50);
          r.p99.push(lat.p99);
          r.errors += lat.errors;
          if (!measureThroughput) continue;
          const thr = await throughput(c50, connections, opts.seconds);
          r.rps.push(thr.rps);
          r.errors += thr.errors;
        }
      }
    }
    const m = (name: string) => {
      const r = results[name]!;
      return { p50: median(r.p50), p99: median(r.p99), rps: r.rps.length ? median(r.rps) : NaN, errors: r.errors, rounds: r.p50, cpuUs: r.cpuUs.length ? median(r.cpuUs) : NaN, pgUs: r.pgUs.length ? median(r.pgUs) : NaN };
    };
    const bareM = { rps: median(bareRounds.map((b) => b.rps)), serviceUs: median(bareRounds.map((b) => b.serviceUs)), pgUs: median(bareRounds.map((b) => b.pgUs)) };
    const bareC1 = { serviceUs: median(bareC1Rounds.map((b) => b.serviceUs)), pgUs: median(bareC1Rounds.map((b) => b.pgUs)) };
    console.log(`\nPOST /api/ai/chat vs the same fake OpenAI server called directly, ${opts.rounds} interleaved rounds of ${opts.seconds}s (medians)`);
    console.log('mode     service                        c=1 p50 direct / service / added (ms)   c=1 p99 direct / service / added (ms)   c=50 req/s direct / service / ratio   errors');
    console.log(`bare node+pg (50 connections, same rounds): ${bareM.rps.toFixed(0)} req/s, CPU per request: its process ${bareM.serviceUs.toFixed(1)} µs, PostgreSQL backends ${bareM.pgUs.toFixed(1)} µs (the "x" ratios below are to these)`);
    console.log(`bare node+pg one request at a time (same rounds): CPU per request: its process ${bareC1.serviceUs.toFixed(1)} µs, PostgreSQL backends ${bareC1.pgUs.toFixed(1)} µs`);
    const summary: Record<string, { addedP50: number; addedP99: number; ratio: number; v1AddedP50: number; serviceUs: number; pgUs: number; v1ServiceUs: number; v1PgUs: number }> = {};
    for (const mode of ['json', 'stream']) {
      const d = m(`${mode}:direct`);
      for (const svc of [...services, { name: '/v1' }]) {
        const s = m(`${mode}:${svc.name}`);
        if (svc.name === 'service') summary[mode] = { addedP50: s.p50 - d.p50, addedP99: s.p99 - d.p99, ratio: s.rps / d.rps, v1AddedP50: NaN, serviceUs: s.cpuUs, pgUs: s.pgUs, v1ServiceUs: NaN, v1PgUs: NaN };
        if (svc.name === '/v1') Object.assign(summary[mode]!, { v1AddedP50: s.p50 - d.p50, v1ServiceUs: s.cpuUs, v1PgUs: s.pgUs });
        console.log(
          `${mode.padEnd(8)} ${svc.name.slice(0, 30).padEnd(30)} ${fmt(d.p50)} / ${fmt(s.p50)} / ${fmt(s.p50 - d.p50)}            ${fmt(d.p99)} / ${fmt(s.p99)} / ${fmt(s.p99 - d.p99)}            ${d.rps.toFixed(0).padStart(6)} / ${s.rps.toFixed(0).padStart(6)} / ${(s.rps / d.rps).toFixed(2)}      ${d.errors + s.errors}`,
        );
        console.log(`         added p50 per round (ms): ${s.rounds.map((x, i) => (x - d.rounds[i]!).toFixed(2)).join(' ')}; CPU per request at c=1: service ${cpuFig(s.cpuUs, bareM.serviceUs)}, PostgreSQL ${cpuFig(s.pgUs, bareM.pgUs)}; over bare at c=1: ${ratio(s.cpuUs, bareC1.serviceUs)}, ${ratio(s.pgUs, bareC1.pgUs)}`);
      }
    }
    console.log(`target: at most ${here(TARGETS.aiChatAddedMs).toFixed(2)} ms added at p50 here (${TARGETS.aiChatAddedMs} ms on a machine ${SLOWER}x slower, bench/targets.ts; c=1: each request a distinct session user with CSRF; c=50: API keys)`);
    for (const mode of ['json', 'stream']) {
      const r = summary[mode]!;
      console.log(`${mode.padEnd(8)} /v1/chat/completions added p50 ${fmt(r.v1AddedP50)} ms beside /api/ai/chat's ${fmt(r.addedP50)} ms (difference ${fmt(r.v1AddedP50 - r.addedP50)}; target within 0.1 ms; /v1 by API key, OpenAI's body)`);
    }
    return { json: summary.json!, stream: summary.stream!, bare: bareM, bareC1 };
  } finally {
    await bare?.stop();
    await monitor?.close();
    for (const svc of services) svc.app.kill('SIGTERM');
    provider.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    for (const svc of services) await svc.drop();
    baseline?.remove();
  }
}

const fmt = (ms: number) => ms.toFixed(2).padStart(6);

/**
 * `n` users, each subscribed to network with ample credits, each with an API key: their chat headers.
 * Each one's session headers (cookie and CSRF token) are pushed onto `sessions`.
 */
export async function makeCallers(base: string, databaseUrl: string, n: number, sessions: Record<string, string>[] = []): Promise<Record<string, string>[]> {
  const owner = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const callers: Record<string, string>[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const email = `bench-ai-${i}-${randomBytes(3).toString('hex')}@example.test`;
      const { id } = (await (await post('/api/register', { email, password: 'bench password' })).json()) as { id: string };
      const signIn = await post('/api/auth/callback/credentials', { email, password: 'bench password' });
      const cookies = signIn.headers.getSetCookie().map((c) => c.split(';')[0]!);
      const csrf = cookies.find((c) => c.startsWith('csrf='))!.slice(5);
      const { key } = (await (await post('/api/keys', { name: 'bench' }, { cookie: cookies.join('; '), 'x-csrf-token': csrf })).json()) as { key: string };
      const sub = `sub_bench_${randomBytes(6).toString('hex')}`;
      await owner.query(
        `insert into subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at)
         values ($1, $2, 'subscription', 'checkout', 'network', 'active', now())`,
        [sub, id],
      );
      // enough credits that the benchmark never runs out of units
      await owner.query('update users set credits = 100000000 where id = $1', [id]);
      callers.push({ authorization: `Bearer ${key}`, 'x-user-plan': 'network', 'x-payment-subscription-id': sub });
      // as a browser of a network subscriber calls it: the session cookie, its CSRF token and the plan headers
      sessions.push({ cookie: cookies.join('; '), 'x-csrf-token': csrf, 'x-user-plan': 'network', 'x-payment-subscription-id': sub });
    }
  } finally {
    await owner.end();
  }
  return callers;
}

/** Requests one after another on one keep-alive connection for `seconds`; latencies to the last byte. */
export async function sequential(t: Target, seconds: number): Promise<{ p50: number; p99: number; errors: number; count: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  try {
    while (performance.now() < until) {
      const started = performance.now();
      const { status, body } = await answer(t, agent);
      latencies.push(performance.now() - started);
      if (status !== 200 || !carriesProviderText(body)) errors++;
    }
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), errors, count: latencies.length };
}

/** The fake provider answers "Hello, world!" (streamed as "Hello", ", ", "world", "!"). */
export const carriesProviderText = (body: string): boolean => body.includes('Hello') && body.includes('world');

/** One request; its status and body. */
export function answer(t: Target, agent: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(t.url, { method: 'POST', agent, headers: t.headers(0) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(t.body);
  });
}

export function once(t: Target, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(t.url, { method: 'POST', agent, headers: t.headers(0) }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(t.body);
  });
}

export async function throughput(t: Target, connections: number, seconds: number): Promise<{ rps: number; errors: number }> {
  let next = 0;
  const r = await autocannon({
    url: t.url,
    method: 'POST',
    body: t.body,
    connections,
    duration: seconds,
    headers: t.headers(0),
    setupClient: (client) => client.setHeaders(t.headers(next++)),
  });
  return { rps: r.requests.average, errors: r.errors + r.non2xx };
}

