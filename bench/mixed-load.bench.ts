import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { agentBenchEnv, benchDatabase, buildService, startBenchService, startFakeProvider } from './support.js';

const PROVIDER_KEY = 'sk-bench-provider-key';
const PASSWORD = 'bench password';

/**
 * Issue 12 item 5, load: a mixed workload for `seconds` (60 by default) against the service as
 * `npm start` runs it (SERVICE_ROLE=all, process runtime, the platform's model route pointed at a local
 * fake OpenAI-format provider that answers at once). Every endpoint below runs at once, each with its
 * own fixed number of callers looping on keep-alive connections, so the figures are those of the mix:
 * sign-in, settings, agents (list, detail), chat with a running agent, memory (read, write), skills
 * (catalog, a stateful skill call). The gateway is left out: no gateway route is registered on main yet.
 * Required: zero errors (any non-2xx, any network error); p50, p99 and req/s printed per endpoint.
 */
export async function benchMixedLoad(opts: { seconds: number; users?: number }) {
  const users = opts.users ?? 6;
  const db = await benchDatabase();
  let provider: ChildProcess | undefined;
  let app: ChildProcess | undefined;
  const owner = new pg.Pool({ connectionString: db.url, max: 2 });
  try {
    const fake = await startFakeProvider(PROVIDER_KEY);
    provider = fake.child;
    const service = await startBenchService(buildService(), db.url, 'all', agentBenchEnv(PROVIDER_KEY, fake.baseUrl));
    app = service.child;
    const base = service.base;

    // users subscribed with ample credits, one running agent each, some memory, one scheduled event
    const callers: { id: string; email: string; headers: Record<string, string>; agentId: string }[] = [];
    for (let i = 0; i < users; i++) {
      const email = `bench-mix-${i}-${randomBytes(3).toString('hex')}@example.test`;
      const reg = await send(base, 'POST', '/api/register', {}, { email, password: PASSWORD });
      if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.body}`);
      const id = (JSON.parse(reg.body) as { id: string }).id;
      await owner.query(
        `insert into subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at) values ($1, $2, 'subscription', 'checkout', 'network', 'active', now())`,
        [`sub_bench_${randomBytes(6).toString('hex')}`, id],
      );
      await owner.query('update users set credits = 100000000 where id = $1', [id]);
      const headers = await signIn(base, email);
      const agent = await send(base, 'POST', '/api/agents/provision', headers, { name: `Mix ${i}` });
      if (agent.status !== 201) throw new Error(`provision: ${agent.status} ${agent.body}`);
      callers.push({ id, email, headers, agentId: (JSON.parse(agent.body) as { agent: { id: string } }).agent.id });
    }
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const { n } = (await owner.query(`select count(*)::int as n from agents where status = 'running'`)).rows[0];
      if (n >= users) break;
      if (Date.now() + 500 > deadline) throw new Error(`only ${n} of ${users} agents running`);
      await sleep(200);
    }
    for (const c of callers) {
      await must(send(base, 'POST', '/api/memory', c.headers, { agentId: c.agentId, key: 'k0', memory: { note: 'warm' } }));
      await must(send(base, 'POST', '/api/skills/event-scheduler', c.headers, { action: 'schedule', title: 'Show', date: '2027-03-01', time: '21:30', channels: ['email'] }));
      await must(send(base, 'POST', '/api/chat', c.headers, { agentId: c.agentId, content: 'Warm up.' }));
    }

    const at = (i: number) => callers[i % callers.length]!;
    /** Each endpoint: how many callers loop on it at once, and the request the i-th of them sends. */
    const mix: { name: string; callers: number; req: (i: number, n: number) => Req }[] = [
      { name: 'POST /api/auth/callback/credentials', callers: 1, req: (i) => ({ method: 'POST', path: '/api/auth/callback/credentials', headers: {}, body: { email: at(i).email, password: PASSWORD } }) },
      { name: 'GET /api/settings', callers: 2, req: (i) => ({ method: 'GET', path: '/api/settings', headers: at(i).headers }) },
      { name: 'GET /api/agents', callers: 2, req: (i) => ({ method: 'GET', path: '/api/agents', headers: at(i).headers }) },
      { name: 'GET /api/agents/:id', callers: 2, req: (i) => ({ method: 'GET', path: `/api/agents/${at(i).agentId}`, headers: at(i).headers }) },
      // one message in flight per agent: an agent answers its mailbox in order
      { name: 'POST /api/chat', callers: users, req: (i, n) => ({ method: 'POST', path: '/api/chat', headers: at(i).headers, body: { agentId: at(i).agentId, content: `Hello ${n}` } }) },
      { name: 'GET /api/memory', callers: 2, req: (i) => ({ method: 'GET', path: `/api/memory?agentId=${at(i).agentId}`, headers: at(i).headers }) },
      { name: 'POST /api/memory', callers: 1, req: (i, n) => ({ method: 'POST', path: '/api/memory', headers: at(i + n).headers, body: { agentId: at(i + n).agentId, key: `k${n % 5}`, memory: { n } } }) },
      { name: 'GET /api/skills', callers: 2, req: () => ({ method: 'GET', path: '/api/skills', headers: {} }) },
      { name: 'POST /api/skills/event-scheduler (list)', callers: 2, req: (i) => ({ method: 'POST', path: '/api/skills/event-scheduler', headers: at(i).headers, body: { action: 'list' } }) },
      { name: 'POST /api/v1/gateway (generate-text)', callers: 1, req: (i, n) => ({ method: 'POST', path: '/api/v1/gateway', headers: at(i).headers, body: { prompt: `Hello ${n}` } }) },
    ];

    const stats = new Map(mix.map((m) => [m.name, { latencies: [] as number[], errors: 0, firstErrors: [] as string[] }]));
    const until = performance.now() + opts.seconds * 1000;
    const started = performance.now();
    await Promise.all(
      mix.flatMap((m) =>
        Array.from({ length: m.callers }, async (_, i) => {
          const agent = new Agent({ keepAlive: true, maxSockets: 1 });
          const s = stats.get(m.name)!;
          try {
            for (let n = 0; performance.now() < until; n++) {
              const t0 = performance.now();
              const r = await timed(base, m.req(i, n), agent).catch((e: Error) => ({ status: 0, body: e.message }));
              s.latencies.push(performance.now() - t0);
              if (r.status < 200 || r.status >= 300) {
                s.errors++;
                if (s.firstErrors.length < 3) s.firstErrors.push(`${r.status} ${r.body.slice(0, 160)}`);
              }
            }
          } finally {
            agent.destroy();
          }
        }),
      ),
    );
    const elapsed = (performance.now() - started) / 1000;

    console.log(`\nMixed load: ${opts.seconds}s, every endpoint at once (SERVICE_ROLE=all, process runtime, ${users} users with a running agent each, fake provider)`);
    console.log(`${'endpoint'.padEnd(40)} callers   requests    req/s   p50 ms   p99 ms  errors`);
    let total = 0;
    let errors = 0;
    for (const m of mix) {
      const s = stats.get(m.name)!;
      const q = quantiles(s.latencies);
      total += s.latencies.length;
      errors += s.errors;
      console.log(`${m.name.padEnd(40)} ${String(m.callers).padStart(7)} ${String(s.latencies.length).padStart(10)} ${(s.latencies.length / elapsed).toFixed(1).padStart(8)} ${q.p50.toFixed(2).padStart(8)} ${q.p99.toFixed(2).padStart(8)} ${String(s.errors).padStart(7)}`);
      for (const e of s.firstErrors) console.log(`    error: ${e}`);
    }
    console.log(`${'all'.padEnd(40)} ${String(mix.reduce((a, m) => a + m.callers, 0)).padStart(7)} ${String(total).padStart(10)} ${(total / elapsed).toFixed(1).padStart(8)}`);
    console.log(errors === 0 ? 'zero errors: PASS' : `${errors} errors: FAIL (required: zero)`);
    if (errors > 0) process.exitCode = 1;
    return { total, errors, seconds: elapsed };
  } finally {
    await owner.end();
    app?.kill('SIGTERM');
    provider?.kill('SIGTERM');
    await waitExit(app, 20_000);
    await waitExit(provider, 5_000);
    await db.drop();
  }
}

interface Req { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: unknown }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signIn(base: string, email: string) {
  const res = await fetch(`${base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  return { cookie: cookies.join('; '), 'x-csrf-token': cookies.find((c) => c.startsWith('csrf='))!.slice(5) };
}

async function send(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const r = await fetch(base + path, {
    method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(60_000),
  });
  return { status: r.status, body: await r.text() };
}

async function must(p: Promise<{ status: number; body: string }>) {
  const r = await p;
  if (r.status < 200 || r.status >= 300) throw new Error(`warm-up: ${r.status} ${r.body.slice(0, 300)}`);
}

/** One request on a keep-alive agent; resolves with the status once the whole body is read. */
function timed(base: string, r: Req, agent: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
    const req = request(base + r.path, { method: r.method, agent, headers: { ...r.headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) }, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

function quantiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

async function waitExit(child: ChildProcess | undefined, ms: number) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  if ((await Promise.race([exited.then(() => true), sleep(ms).then(() => false)])) === false) child.kill('SIGKILL');
}
