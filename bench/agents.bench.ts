import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { here, SLOWER, TARGETS } from './targets.js';
import { baselineService, benchDatabase, buildService, childrenCpuMs, cpuFig, ratio, cpuPerRequest, freePort, machineCpuMs, median, PgBackendCpu, pgTrace, processCpuMs, startBareBaseline, startProcess } from './support.js';
import { carriesProviderText } from './ai-chat.bench.js';

const PROVIDER_KEY = 'sk-bench-provider-key';

/**
 * Issue 8: agents on the real process runtime, the service compiled as `npm start` runs it
 * (SERVICE_ROLE=all: the api, the pg-boss worker and the agent runtimes in one process), the
 * platform's OpenRouter route pointed at a local fake OpenAI-format provider that answers at once.
 *
 * 1. Provisioning: `users` subscribed (network) users, `agents` agents in all through
 *    POST /api/agents/provision (one caller per user, its agents one after another); the time from
 *    the first POST until every agent is `running`, jobs per second, and the latency of lifecycle
 *    calls (POST /api/instance/:userId/{stop,start,restart}) on a sample of users.
 * 2. Message round trip: POST /api/chat at concurrency 1 against the fake provider called directly
 *    (same body shape, same run, interleaved rounds), then messages per second with one message in
 *    flight per agent on `concurrentAgents` agents of different users.
 * Every loop is bounded by a count and a deadline; everything started is stopped.
 */
export async function benchAgents(opts: { rounds: number; seconds: number; users?: number; agents?: number; lifecycleUsers?: number; lifecycleRounds?: number }) {
  const users = opts.users ?? 20;
  const agentsTotal = opts.agents ?? 100;
  const lifecycleUsers = Math.min(users, opts.lifecycleUsers ?? 5);
  const lifecycleRounds = opts.lifecycleRounds ?? 4;
  const db = await benchDatabase();
  let provider: ChildProcess | undefined;
  let app: ChildProcess | undefined;
  const owner = new pg.Pool({ connectionString: db.url, max: 3 });
  const baseline = baselineService();
  let baselineApp: ChildProcess | undefined;
  let baselineDb: { url: string; name: string; drop(): Promise<void> } | undefined;
  let monitor: PgBackendCpu | undefined;
  let bare: Awaited<ReturnType<typeof startBareBaseline>> | undefined;
  const baselineChatters: { headers: Record<string, string>; agentId: string; base: string }[] = [];
  try {
    provider = fork('bench/fake-ai-provider.ts', [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, FAKE_API_KEY: PROVIDER_KEY },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const providerBase = await new Promise<string>((resolve, reject) => {
      provider!.once('message', (m) => resolve((m as { baseUrl: string }).baseUrl));
      provider!.once('exit', (code) => reject(new Error(`fake provider exited with ${code}`)));
    });
    const serviceEnv = (databaseUrl: string, base: string) => ({
      DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn', SERVICE_ROLE: 'all',
      JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-bench', COOKIE_SECRET: 'bench-cookie-secret-bench-cookie-secret',
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), HOST: '127.0.0.1', APP_URL: base,
      RUNTIME_RUN_AS_USER: '', OPENROUTER_API_KEY: PROVIDER_KEY, OPENROUTER_BASE_URL: providerBase,
      RATE_LIMIT_AUTH: '1000000', RATE_LIMIT_CHAT: '100000000', RATE_LIMIT_AGENTS: '1000000', RATE_LIMIT_INSTANCE: '1000000',
      AGENT_REPLY_TIMEOUT_MS: '20000',
      // BENCH_DB_POOL_SIZE: the service's pool (10 by default), to see whether connections bound the 20-agent round
      ...(process.env.BENCH_DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.BENCH_DB_POOL_SIZE } : {}),
    });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    app = await startProcess(buildService(), serviceEnv(db.url, base), port);

    const callers = await makeUsers(base, owner, users);

    // ---- 1. provisioning ----
    const perUser = Math.ceil(agentsTotal / users);
    const postLatencies: number[] = [];
    let postErrors = 0;
    const agentIds: string[][] = callers.map(() => []);
    const started = performance.now();
    await Promise.all(
      callers.map(async (c, u) => {
        for (let i = 0; i < perUser && u * perUser + i < agentsTotal; i++) {
          const t0 = performance.now();
          const r = await send(base, 'POST', '/api/agents/provision', c.headers, { name: `Bench ${u}-${i}` });
          postLatencies.push(performance.now() - t0);
          if (r.status !== 201) { postErrors++; continue; }
          agentIds[u]!.push((JSON.parse(r.body) as { agent: { id: string } }).agent.id);
        }
      }),
    );
    const posted = performance.now();
    const provisioned = agentIds.flat().length;
    let running = 0;
    let failed = 0;
    const deadline = started + 120_000;
    while (performance.now() < deadline) {
      const r = (await owner.query(`select count(*) filter (where status = 'running')::int as running, count(*) filter (where status = 'error')::int as failed from agents`)).rows[0];
      running = r.running;
      failed = r.failed;
      if (running + failed >= provisioned) break;
      await sleep(20);
    }
    const allRunning = performance.now() - started;
    // where the provisioning time goes: pg-boss's own timestamps of the provision jobs
    const jobs = (await owner.query(
      `select count(*)::int as n,
              percentile_cont(0.5) within group (order by extract(epoch from started_on - created_on) * 1000) as wait50,
              max(extract(epoch from started_on - created_on) * 1000) as waitmax,
              percentile_cont(0.5) within group (order by extract(epoch from completed_on - started_on) * 1000) as run50,
              max(extract(epoch from completed_on - started_on) * 1000) as runmax
         from pgboss.job where name = 'provision'`,
    ).catch(() => ({ rows: [] }))).rows[0] as Record<string, number> | undefined;

    // lifecycle calls on a sample of users, after provisioning settled
    const lifecycle: number[] = [];
    let lifecycleErrors = 0;
    const lifecycleUntil = performance.now() + 120_000;
    for (let round = 0; round < lifecycleRounds && performance.now() < lifecycleUntil; round++) {
      for (let u = 0; u < lifecycleUsers; u++) {
        for (const command of ['stop', 'start', 'restart']) {
          const t0 = performance.now();
          const r = await send(base, 'POST', `/api/instance/${callers[u]!.id}/${command}`, callers[u]!.headers);
          lifecycle.push(performance.now() - t0);
          if (r.status !== 200) lifecycleErrors++;
        }
      }
    }
    const lc = quantiles(lifecycle);
    const pp = quantiles(postLatencies);
    console.log(`\nAgents: provisioning ${provisioned} agents for ${users} users through POST /api/agents/provision (SERVICE_ROLE=all, process runtime)`);
    console.log(`  POST /api/agents/provision: ${postLatencies.length} calls, p50 ${fmt(pp.p50)} ms, p99 ${fmt(pp.p99)} ms, errors ${postErrors}; all posted after ${fmt(posted - started)} ms`);
    console.log(`  all running after ${fmt(allRunning)} ms (${running} running, ${failed} error): ${(provisioned / (allRunning / 1000)).toFixed(1)} jobs/s   target: under 20000 ms`);
    if (jobs) console.log(`  provision jobs (pg-boss timestamps): ${jobs.n} jobs, queued->started p50 ${fmt(jobs.wait50)} ms max ${fmt(jobs.waitmax)} ms, started->completed p50 ${fmt(jobs.run50)} ms max ${fmt(jobs.runmax)} ms`);
    console.log(`  lifecycle stop/start/restart on ${lifecycleUsers} users x ${lifecycleRounds}: ${lifecycle.length} calls, p50 ${fmt(lc.p50)} ms, p99 ${fmt(lc.p99)} ms, max ${fmt(lc.max)} ms, errors ${lifecycleErrors}   target: p99 under 1000 ms`);

    // ---- BENCH_BASELINE_REF: the baseline's service, its users each with one running agent, for the message round trips ----
    if (baseline) {
      baselineDb = await benchDatabase({ prepare: false }); // migrated by the baseline's own service
      const basePort = await freePort();
      const baselineBase = `http://127.0.0.1:${basePort}`;
      baselineApp = await startProcess(baseline.entry, serviceEnv(baselineDb.url, baselineBase), basePort, baseline.cwd);
      const baselineOwner = new pg.Pool({ connectionString: baselineDb.url, max: 2 });
      try {
        const users = await makeUsers(baselineBase, baselineOwner, chattersWanted(callers.length));
        for (const c of users) {
          const r = await send(baselineBase, 'POST', '/api/agents/provision', c.headers, { name: 'Bench baseline' });
          if (r.status === 201) baselineChatters.push({ headers: c.headers, agentId: (JSON.parse(r.body) as { agent: { id: string } }).agent.id, base: baselineBase });
        }
        const until = performance.now() + 120_000;
        while (performance.now() < until) {
          const { n, failed } = (await baselineOwner.query(`select count(*) filter (where status = 'running')::int as n, count(*) filter (where status = 'error')::int as failed from agents`)).rows[0];
          if (n + failed >= baselineChatters.length) break;
          await sleep(50);
        }
        const states = (await baselineOwner.query(`select status, count(*)::int as n from agents group by status`)).rows;
        const reasons = (await baselineOwner.query(`select kind, reason, count(*)::int as n from agent_events where reason is not null group by kind, reason limit 5`)).rows;
        console.log(`  baseline ${baseline.ref}: agents ${JSON.stringify(states)}${reasons.length ? `, events ${JSON.stringify(reasons)}` : ''}`);
      } finally {
        await baselineOwner.end();
      }
    }

    // ---- 2. message round trip ----
    // the first agent of each user (every user's instance runs after the lifecycle calls); one warm-up message each
    const chatters = callers.map((c, u) => ({ headers: c.headers, agentId: agentIds[u]![0]!, base })).filter((c) => c.agentId);
    const chatPath = (c: { headers: Record<string, string>; agentId: string; base: string }): Target => ({
      url: `${c.base}/api/chat`, headers: { ...c.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: c.agentId, content: 'Say hello to the benchmark.' }),
    });
    const direct: Target = {
      url: `${providerBase}/chat/completions`, headers: { authorization: `Bearer ${PROVIDER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello to the benchmark.' }] }),
    };
    // /api/runtime/chat called directly as the agent-host program calls it (streamed, its gateway token, its prompt)
    const first = chatters[0]!;
    const firstUser = callers.find((c) => c.headers === first.headers)!;
    const token = (JSON.parse((await send(base, 'GET', `/api/instance/${firstUser.id}/token`, firstUser.headers)).body) as { token: string }).token;
    const model = (await owner.query(`select model from agents where id = $1`, [first.agentId])).rows[0].model as string;
    const runtimeChat: Target = {
      url: `${base}/api/runtime/chat`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ agentId: first.agentId, model, messages: [{ role: 'user', content: 'Say hello to the benchmark.' }] }),
    };
    let warmErrors = 0;
    for (const t of [runtimeChat, ...[...chatters, ...baselineChatters].map(chatPath)]) {
      const r = await timed(t, new Agent());
      if (r.status !== 200 && warmErrors++ === 0) console.log(`  warm-up ${t.url}: HTTP ${r.status} ${r.body.slice(0, 200)}`);
    }
    await sequential(direct, 1);

    // the service's CPU with no message in flight (its 100 agents' supervision, heartbeats, polling):
    // what of the CPU per message below is background work spread over the messages
    const idleSeconds = 3;
    const idleBefore = { service: processCpuMs(app.pid), baseline: processCpuMs(baselineApp?.pid) };
    await sleep(idleSeconds * 1000);
    const idleCpu = {
      service: (processCpuMs(app.pid) - idleBefore.service) / idleSeconds,
      baseline: (processCpuMs(baselineApp?.pid) - idleBefore.baseline) / idleSeconds,
    };

    // the bare baseline (bench/bare-baseline.mjs) in the same rounds: the CPU figures' ratios are to its CPU per request
    monitor = await PgBackendCpu.open(db.url, ...(baselineDb ? [baselineDb.url] : []));
    bare = await startBareBaseline(db.url, db.name, monitor);
    const bareRounds: { rps: number; serviceUs: number; pgUs: number }[] = [];
    const bareC1Rounds: { count: number; serviceUs: number; pgUs: number }[] = [];
    const cpuUs = { service: [] as number[], baseline: [] as number[] };
    const pgUs = { service: [] as number[], baseline: [] as number[] };
    // hostsUs: the agent hosts' CPU (the programs); busy: the share of both cores in use during the
    // round, which says whether the machine's CPU or a wait somewhere bounds the rate
    const concCpu = { serviceUs: [] as number[], pgUs: [] as number[], hostsUs: [] as number[], busy: [] as number[] };
    const p50s = { direct: [] as number[], runtime: [] as number[], service: [] as number[], baseline: [] as number[] };
    const p99s = { direct: [] as number[], runtime: [] as number[], service: [] as number[], baseline: [] as number[] };
    const counts = { direct: 0, runtime: 0, service: 0, baseline: 0 };
    let chatErrors = warmErrors;
    // each message goes to the next user's agent (distinct signed-in users, session and CSRF), so no
    // conversation's history grows much; an answer without the provider's text counts as an error
    let nextChatter = 0;
    const anyChatter = (): Target => {
      const t = chatPath(chatters[nextChatter++ % chatters.length]!);
      return { ...t, check: carriesProviderText };
    };
    let nextBaseline = 0;
    const anyBaseline = (): Target => ({ ...chatPath(baselineChatters[nextBaseline++ % baselineChatters.length]!), check: carriesProviderText });
    const paths = [['direct', direct], ['runtime', runtimeChat], ['service', anyChatter], ...(baseline ? [['baseline', anyBaseline] as const] : [])] as const;
    for (let round = 0; round < opts.rounds; round++) {
      bareRounds.push(await bare.round(Math.min(2000, opts.seconds * 1000)));
      bareC1Rounds.push(await bare.sequentialRound(Math.min(2000, opts.seconds * 1000)));
      for (const [path, t] of paths) {
        // BENCH_PG_TRACE: the statements per message and where a message's time goes, in the first round
        const trace = pgTrace(app);
        if (round === 0 && path === 'service') trace.reset();
        // the service process's own CPU per message (from /proc; its agent-host programs apart)
        const proc = path === 'service' ? app : path === 'baseline' ? baselineApp : undefined;
        const dbName = path === 'service' ? db.name : path === 'baseline' ? baselineDb?.name : undefined;
        const s = await cpuPerRequest(proc?.pid, dbName ? monitor : undefined, dbName ? [dbName] : [], () => sequential(t, opts.seconds));
        if (path === 'service' || path === 'baseline') {
          cpuUs[path].push(s.serviceUs);
          pgUs[path].push(s.pgUs);
        }
        if (round === 0 && path === 'service') {
          await trace.report('POST /api/chat, c=1', '/api/chat');
          await trace.report('its POST /api/runtime/chat', '/api/runtime/chat');
        }
        p50s[path].push(s.p50);
        p99s[path].push(s.p99);
        counts[path] += s.count;
        if (path !== 'direct') chatErrors += s.errors;
        if (s.errors > 0) console.log(`  round ${round + 1} ${path}: ${s.errors} of ${s.count} failed`);
      }
    }
    // where a message's time goes, from the mailbox's timestamps (the c=1 rounds' agents)
    const steps = (await owner.query(
      `select percentile_cont(0.5) within group (order by extract(epoch from started_at - queued_at) * 1000) as claim50,
              percentile_cont(0.99) within group (order by extract(epoch from started_at - queued_at) * 1000) as claim99,
              percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at) * 1000) as work50,
              percentile_cont(0.99) within group (order by extract(epoch from finished_at - started_at) * 1000) as work99
         from agent_mailbox where finished_at is not null and agent_id = any($1::uuid[])`,
      [chatters.map((c) => c.agentId)],
    )).rows[0] as Record<string, number>;
    const d50 = median(p50s.direct), s50 = median(p50s.service), d99 = median(p99s.direct), s99 = median(p99s.service);
    const bareM = { rps: median(bareRounds.map((b) => b.rps)), serviceUs: median(bareRounds.map((b) => b.serviceUs)), pgUs: median(bareRounds.map((b) => b.pgUs)) };
    const bareC1 = { serviceUs: median(bareC1Rounds.map((b) => b.serviceUs)), pgUs: median(bareC1Rounds.map((b) => b.pgUs)) };
    console.log(`\nAgents: POST /api/chat (mailbox, runtime, /api/runtime/chat, provider) vs the fake provider called directly, c=1, ${opts.rounds} interleaved rounds of ${opts.seconds}s (medians; ${counts.service} messages, ${counts.direct} direct calls)`);
    console.log(`  p50 direct / service / added: ${fmt(d50)} / ${fmt(s50)} / ${fmt(s50 - d50)} ms   target: at most ${here(TARGETS.agentAddedMs).toFixed(2)} ms added here (${TARGETS.agentAddedMs} ms on a machine ${SLOWER}x slower, bench/targets.ts)`);
    console.log(`  p99 direct / service / added: ${fmt(d99)} / ${fmt(s99)} / ${fmt(s99 - d99)} ms   errors ${chatErrors}`);
    console.log(`  added p50 per round (ms): ${p50s.service.map((x, i) => (x - p50s.direct[i]!).toFixed(2)).join(' ')}`);
    console.log(`  CPU per message: the service ${cpuFig(median(cpuUs.service), bareM.serviceUs)}, PostgreSQL backends ${cpuFig(median(pgUs.service), bareM.pgUs)}; bare node+pg in the same rounds ${bareM.rps.toFixed(0)} req/s at ${bareM.serviceUs.toFixed(1)} + ${bareM.pgUs.toFixed(1)} µs (the agent-host programs' CPU is not counted); over bare one request at a time (${bareC1.serviceUs.toFixed(1)} + ${bareC1.pgUs.toFixed(1)} µs): ${ratio(median(cpuUs.service), bareC1.serviceUs)}, ${ratio(median(pgUs.service), bareC1.pgUs)}`);
    console.log(`  the service's CPU with no message in flight: ${idleCpu.service.toFixed(1)} ms/s${baseline ? ` (baseline ${idleCpu.baseline.toFixed(1)} ms/s)` : ''}; the messages of a round at c=1 came ${(counts.service / (opts.rounds * opts.seconds)).toFixed(0)}/s`);
    if (baseline) {
      const b50 = median(p50s.baseline), b99 = median(p99s.baseline);
      console.log(`  baseline ${baseline.ref} (same rounds, ${counts.baseline} messages): p50 ${fmt(b50)} (added ${fmt(b50 - d50)}) ms, p99 ${fmt(b99)} (added ${fmt(b99 - d99)}) ms`);
      console.log(`  baseline added p50 per round (ms): ${p50s.baseline.map((x, i) => (x - p50s.direct[i]!).toFixed(2)).join(' ')}; its CPU per message ${cpuFig(median(cpuUs.baseline), bareM.serviceUs)}, PostgreSQL ${cpuFig(median(pgUs.baseline), bareM.pgUs)}`);
    }
    const r50 = median(p50s.runtime), r99 = median(p99s.runtime);
    console.log(`  POST /api/runtime/chat alone (the runtime's call, streamed): p50 ${fmt(r50)} ms (${fmt(r50 - d50)} over the provider), p99 ${fmt(r99)} ms; ${counts.runtime} calls`);
    console.log(`  mailbox steps: queued->claimed by the worker p50 ${fmt(steps.claim50)} ms p99 ${fmt(steps.claim99)} ms; claimed->answered (runtime IPC, /api/runtime/chat, provider, store) p50 ${fmt(steps.work50)} ms p99 ${fmt(steps.work99)} ms`);

    // BENCH_STRACE=1: one more c=1 window (not counted above, strace slows every syscall) with the
    // service's system calls counted (`strace -f -c`), printed per message
    if (process.env.BENCH_STRACE) {
      const out = join(tmpdir(), `bench-agents-strace-${process.pid}.txt`);
      const tracer = spawn('strace', ['-f', '-c', '-o', out, '-p', String(app.pid)], { stdio: 'ignore' });
      await sleep(500);
      const s = await sequential(anyChatter, opts.seconds);
      tracer.kill('SIGINT');
      await new Promise((r) => tracer.once('exit', r));
      const rows = readFileSync(out, 'utf8').split('\n').filter((l) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(l) && !/\stotal\s*$/.test(l));
      let total = 0;
      const per = rows.map((l) => { const f = l.trim().split(/\s+/); const calls = Number(f[3]); total += calls; return { name: f[f.length - 1]!, calls }; });
      console.log(`  system calls of the service (strace -f -c, ${s.count} messages): ${(total / Math.max(1, s.count)).toFixed(1)} per message: ${per.sort((a, b) => b.calls - a.calls).slice(0, 12).map((r) => `${r.name} ${(r.calls / Math.max(1, s.count)).toFixed(1)}`).join(', ')}`);
      rmSync(out, { force: true });
    }

    // concurrency: one message in flight per agent, each agent a different user
    const rates: number[] = [];
    let concErrors = 0;
    for (let round = 0; round < opts.rounds; round++) {
      const until = performance.now() + opts.seconds * 1000;
      const t0 = performance.now();
      const pg0 = await monitor.snapshot([db.name]);
      const cpu0 = processCpuMs(app.pid);
      const hosts0 = childrenCpuMs(app.pid);
      const machine0 = machineCpuMs();
      const done = await Promise.all(chatters.map(async (c) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        let n = 0;
        try {
          for (let i = 0; i < 100_000 && performance.now() < until; i++) {
            const r = await timed(chatPath(c), agent);
            if (r.status === 200) n++; else concErrors++;
          }
        } finally { agent.destroy(); }
        return n;
      }));
      const n = done.reduce((a, b) => a + b, 0);
      rates.push(n / ((performance.now() - t0) / 1000));
      concCpu.serviceUs.push(((processCpuMs(app.pid) - cpu0) * 1000) / Math.max(1, n));
      concCpu.pgUs.push(((await monitor.since(pg0, [db.name])) * 1000) / Math.max(1, n));
      concCpu.hostsUs.push(((childrenCpuMs(app.pid) - hosts0) * 1000) / Math.max(1, n));
      const machine1 = machineCpuMs();
      concCpu.busy.push((machine1.busy - machine0.busy) / (machine1.total - machine0.total));
    }
    console.log(`  ${chatters.length} agents, one message in flight each: ${median(rates).toFixed(0)} messages/s (median of ${opts.rounds} rounds of ${opts.seconds}s), errors ${concErrors}; CPU per message: service ${cpuFig(median(concCpu.serviceUs), bareM.serviceUs)}, PostgreSQL ${cpuFig(median(concCpu.pgUs), bareM.pgUs)}, agent hosts ${median(concCpu.hostsUs).toFixed(0)} µs; the machine's cores ${(100 * median(concCpu.busy)).toFixed(0)}% busy`);
    return {
      allRunningMs: allRunning, lifecycleP99: lc.p99, addedP50: s50 - d50, addedP99: s99 - d99, messagesPerSecond: median(rates), agentsInFlight: chatters.length,
      serviceUs: median(cpuUs.service), pgUs: median(pgUs.service), concServiceUs: median(concCpu.serviceUs), concPgUs: median(concCpu.pgUs), bare: bareM, bareC1,
    };
  } finally {
    await bare?.stop();
    await monitor?.close();
    await owner.end();
    app?.kill('SIGTERM');
    baselineApp?.kill('SIGTERM');
    provider?.kill('SIGTERM');
    await waitExit(app, 20_000);
    await waitExit(baselineApp, 20_000);
    await waitExit(provider, 5_000);
    await db.drop();
    await baselineDb?.drop();
    baseline?.remove();
  }
}

/** The baseline's users: as many as this run's chatting users. */
const chattersWanted = (users: number) => users;

export interface Target { url: string; headers: Record<string, string>; body: string; check?: (body: string) => boolean }

export const fmt = (ms: number | string | undefined) => Number(ms).toFixed(2).padStart(7);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function quantiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1] ?? NaN };
}

export async function waitExit(child: ChildProcess | undefined, ms: number) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  if ((await Promise.race([exited.then(() => true), sleep(ms).then(() => false)])) === false) child.kill('SIGKILL');
}

/** `n` users signed in by session (cookie + CSRF), subscribed to network with ample credits. */
export async function makeUsers(base: string, owner: pg.Pool, n: number) {
  const out: { id: string; headers: Record<string, string> }[] = [];
  for (let i = 0; i < n; i++) {
    const email = `bench-agents-${i}-${randomBytes(3).toString('hex')}@example.test`;
    const reg = await send(base, 'POST', '/api/register', {}, { email, password: 'bench password' });
    const { id } = JSON.parse(reg.body) as { id: string };
    const signIn = await fetch(`${base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'bench password' }) });
    const cookies = signIn.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = cookies.find((c) => c.startsWith('csrf='))!.slice(5);
    await owner.query(
      `insert into subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at)
       values ($1, $2, 'subscription', 'checkout', 'network', 'active', now())`,
      [`sub_bench_${randomBytes(6).toString('hex')}`, id],
    );
    await owner.query('update users set credits = 100000000 where id = $1', [id]);
    out.push({ id, headers: { cookie: cookies.join('; '), 'x-csrf-token': csrf } });
  }
  return out;
}

export async function send(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const r = await fetch(base + path, {
    method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(60_000),
  });
  return { status: r.status, body: await r.text() };
}

/** Requests one after another on one keep-alive connection for `seconds` (at most 100 000); `t` may be a new target per request. */
export async function sequential(target: Target | (() => Target), seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  try {
    for (let i = 0; i < 100_000 && performance.now() < until; i++) {
      const t = typeof target === 'function' ? target() : target;
      const r = await timed(t, agent);
      latencies.push(r.ms);
      if (r.status !== 200 || (t.check && !t.check(r.body))) {
        // the first failure of a round is shown: a failing path's latency means nothing
        if (errors++ === 0) console.log(`  ${t.url}: HTTP ${r.status} ${r.body.slice(0, 200)}`);
      }
    }
  } finally {
    agent.destroy();
  }
  return { ...quantiles(latencies), errors, count: latencies.length };
}

/**
 * Requests to each target in turn, one at a time, each target on its own keep-alive connection,
 * for `seconds` in all: latencies per target measured under the same moment's load (a slow drift of
 * other load on the machine moves them alike, where rounds one after another see it apart).
 */
export async function alternating(targets: Target[], seconds: number) {
  const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const latencies: number[][] = targets.map(() => []);
  const errors = targets.map(() => 0);
  const until = performance.now() + seconds * 1000;
  try {
    for (let i = 0; i < 100_000 && performance.now() < until; i++) {
      const k = i % targets.length;
      const t = targets[k]!;
      const r = await timed(t, agents[k]!);
      latencies[k]!.push(r.ms);
      if (r.status !== 200 || (t.check && !t.check(r.body))) errors[k]!++;
    }
  } finally {
    for (const a of agents) a.destroy();
  }
  return latencies.map((l, k) => ({ ...quantiles(l), errors: errors[k]!, count: l.length }));
}

function timed(t: Target, agent: Agent): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(t.url, { method: 'POST', agent, headers: t.headers, timeout: 60_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(t.body);
  });
}
