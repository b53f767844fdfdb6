import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { WebSocket } from 'ws';
import { agentBenchEnv, benchDatabase, buildService, descendants, ppid, startBenchService, startFakeProvider, stopProcess } from './support.js';

/**
 * `npm run soak`: a constant mixed load for SOAK_MINUTES (30 by default), printed minute by minute,
 * then the first five minutes against the last five (the first and last minute when shorter than ten).
 *
 * The load: SOAK_USERS (20) users on the `network` plan, each with a running agent, each looping
 * without pause through GET /api/settings (its API key), POST /api/ai/chat (its JWT), POST /api/chat
 * to its agent (its session), POST /api/memory (its session; five keys, overwritten), and every fifth
 * turn its agent's messages (GET /api/agents/:id/messages). The service runs as `npm start` runs it
 * (compiled, SERVICE_ROLE=all: api and worker in one process, process runtime: one agent host process
 * per agent), against the embedded PostgreSQL (SOAK_DATABASE_URL: a given one instead) and the local
 * provider that answers at once (bench/fake-ai-provider.ts).
 *
 * Each minute: requests, errors, p50 and p99 per route; resident memory (RSS) of the service and of
 * each agent host; PostgreSQL's proportional set size (the postmaster and all its children, from
 * /proc/<pid>/smaps_rollup); the service's V8 heap, handles and event-loop lag (its own /metrics,
 * scraped with its METRICS_TOKEN); the rows (live and dead) of the tables that grow.
 * At the end: every message sent was stored and answered (nothing lost), and the targets: throughput
 * of the last period at least 95% of the first, p99 at most 10% above, each process's memory within
 * 5% of minute 5 (minute 1 when shorter than ten), zero errors. The exit code is 1 when one fails.
 *
 * SOAK_HEAP_SNAPSHOTS=1: the service writes a V8 heap snapshot (in its working directory) at minute 1
 * and at the last minute, to compare in Chrome's DevTools. SOAK_EXPLAIN=1: the statements of the hot
 * reads are run under EXPLAIN (ANALYZE, BUFFERS) at minute 1 and at the last minute.
 */
const PROVIDER_KEY = 'sk-bench-provider-key';
const PASSWORD = 'bench password';
const METRICS_TOKEN = 'soak-metrics-token-soak-metrics';
const MODEL = 'openai/gpt-4o-mini';
const ROUTES = ['GET /api/settings', 'POST /api/ai/chat', 'POST /api/chat', 'POST /api/memory', 'GET /api/agents/:id/messages'] as const;
type Route = (typeof ROUTES)[number];
const SHORT: Record<Route, string> = { 'GET /api/settings': 'settings', 'POST /api/ai/chat': 'ai-chat', 'POST /api/chat': 'chat', 'POST /api/memory': 'memory', 'GET /api/agents/:id/messages': 'messages' };
/** The tables whose rows the load adds to (and pg-boss's). */
const GROWING = ['agent_messages', 'agent_mailbox', 'agent_events', 'usage_reservations', 'daily_usage', 'api_key_usage', 'agent_memory', 'request_timings', 'instance_samples', 'platform_ticks', 'outbox', 'pgboss.job', 'pgboss.archive'];

interface Caller { id: string; subscription: string; email: string; session: Record<string, string>; key: string; jwt: string; agentId: string; sent: number; answered: number }
interface Minute {
  minute: number;
  requests: number;
  errors: number;
  perRoute: Record<Route, { n: number; p50: number; p99: number }>;
  p99All: number;
  rssMb: Record<string, number>;
  /** Proportional set size: the pages a process shares (node's own binary, mapped by every host) divided among those sharing them. */
  pssMb: Record<string, number>;
  pgPssMb: number;
  /**
   * PostgreSQL's PSS in two parts: its processes' own memory (anonymous and file pages: backends'
   * caches, sorts, plans) and their share of the shared segment (the buffer cache above all), whose
   * size is fixed at start: it fills as pages are first touched, and cannot grow past it.
   */
  pgOwnMb: number;
  pgSharedMb: number;
  /** The size of PostgreSQL's shared segment (pg_shmem_allocations), and how many of its shared buffers hold a page. */
  pgSegmentMb: number;
  pgBuffersUsed: number;
  pgBuffersTotal: number;
  heapUsedMb: number;
  heapTotalMb: number;
  handles: number;
  lagP99Ms: number;
  /** CPU time per request served in the minute (ms): far less moved by the machine's other load than throughput or latency. */
  cpuPerRequest: { service: number; hosts: number; postgres: number };
  rows: Record<string, { live: number; dead: number }>;
}

const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const users = Number(process.env.SOAK_USERS ?? 20);
const minuteMs = Number(process.env.SOAK_MINUTE_MS ?? 60_000);
/**
 * SOAK_INSPECT=1: each minute, the V8 heap left after a full garbage collection (what is retained,
 * not what a lazy collector has yet to free) of the service and of the first agent host, through
 * their inspector (the service's on SERVICE_INSPECT_PORT, the host's opened by SIGUSR1 on 9229).
 */
const inspect = process.env.SOAK_INSPECT === '1';
const SERVICE_INSPECT_PORT = 9339;

export async function soak() {
  // the embedded cluster unless one is named for the soak (the tests' shared one is not what is measured)
  if (process.env.SOAK_DATABASE_URL) process.env.BENCH_DATABASE_URL = process.env.SOAK_DATABASE_URL;
  else {
    delete process.env.BENCH_DATABASE_URL;
    delete process.env.TEST_DATABASE_URL;
  }
  // pg_stat_statements: each statement's time and buffers per call, minute 1 against the last
  // SOAK_AUTO_EXPLAIN_MS=n: every statement (nested ones too) slower than n ms has its plan, with
  // buffers, written to the cluster's log in SOAK_AUTO_EXPLAIN_DIR (/tmp/soak-auto-explain);
  // SOAK_AUTO_EXPLAIN_SAMPLE=f: only that fraction of statements (0 ms and 0.002: a sample of all)
  const explainMs = process.env.SOAK_AUTO_EXPLAIN_MS;
  const db = await benchDatabase({
    settings: {
      shared_preload_libraries: explainMs ? 'pg_stat_statements,auto_explain' : 'pg_stat_statements', 'pg_stat_statements.track': 'top',
      ...(explainMs
        ? { 'auto_explain.log_min_duration': explainMs, 'auto_explain.sample_rate': process.env.SOAK_AUTO_EXPLAIN_SAMPLE ?? '1', 'auto_explain.log_analyze': 'on', 'auto_explain.log_buffers': 'on', 'auto_explain.log_timing': 'off',
            'auto_explain.log_nested_statements': 'on', logging_collector: 'on', log_directory: process.env.SOAK_AUTO_EXPLAIN_DIR ?? '/tmp/soak-auto-explain' }
        : {}),
    },
  });
  let provider: ChildProcess | undefined;
  let app: ChildProcess | undefined;
  const owner = new pg.Pool({ connectionString: db.url, max: 2 });
  try {
    const fake = await startFakeProvider(PROVIDER_KEY);
    provider = fake.child;
    const service = await startBenchService(buildService(), db.url, 'all', {
      ...agentBenchEnv(PROVIDER_KEY, fake.baseUrl), METRICS_TOKEN, OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: fake.baseUrl,
      ...(process.env.SOAK_HEAP_SNAPSHOTS === '1' || inspect ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''}${process.env.SOAK_HEAP_SNAPSHOTS === '1' ? ' --heapsnapshot-signal=SIGUSR2' : ''}${inspect ? ` --inspect=127.0.0.1:${SERVICE_INSPECT_PORT}` : ''}` } : {}),
    });
    app = service.child;
    const base = service.base;
    const pgPid = await postmasterPid(owner);
    await owner.query('create extension if not exists pg_buffercache').catch((e: Error) => console.log(`  (no pg_buffercache: ${e.message})`));
    const statements = await owner.query('create extension if not exists pg_stat_statements').then(() => statementStats(owner)).then(() => true, (e: Error) => (console.log(`  (no pg_stat_statements: ${e.message})`), false));

    const callers: Caller[] = [];
    for (let i = 0; i < users; i++) callers.push(await makeCaller(base, owner, i));
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      const { n } = (await owner.query(`select count(*)::int as n from agents where status = 'running'`)).rows[0];
      if (n >= users) break;
      if (Date.now() + 500 > deadline) throw new Error(`only ${n} of ${users} agents running`);
      await sleep(200);
    }
    for (const c of callers) {
      await must(send(base, 'POST', '/api/chat', c.session, { agentId: c.agentId, content: 'Warm up.' }));
      c.sent++;
      c.answered++;
      await must(send(base, 'GET', '/api/settings', { authorization: `Bearer ${c.key}` }));
      await must(send(base, 'POST', '/api/ai/chat', { authorization: `Bearer ${c.jwt}`, 'x-user-plan': 'network', 'x-payment-subscription-id': c.subscription }, { messages: [{ role: 'user', content: 'Warm up.' }], model: MODEL }));
    }

    console.log(`\nSoak: ${minutes} minute(s) of ${minuteMs / 1000}s, ${users} users on the network plan with a running agent each (SERVICE_ROLE=all, process runtime, ${process.env.SOAK_DATABASE_URL ? 'given' : 'embedded'} PostgreSQL, fake provider)`);
    let bucket = freshBucket();
    const firstErrors: string[] = [];
    let stop = false;
    const loops = callers.map(async (c) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const key = { authorization: `Bearer ${c.key}` };
      const jwt = { authorization: `Bearer ${c.jwt}`, 'x-user-plan': 'network', 'x-payment-subscription-id': c.subscription };
      const one = async (route: Route, r: Req, check?: (body: string) => boolean) => {
        const t0 = performance.now();
        const res = await timed(base, r, agent).catch((e: Error) => ({ status: 0, body: e.message }));
        const b = bucket;
        b.lat[route].push(performance.now() - t0);
        const ok = res.status >= 200 && res.status < 300 && (!check || check(res.body));
        if (!ok) {
          b.errors++;
          if (firstErrors.length < 10) firstErrors.push(`${route}: ${res.status} ${res.body.slice(0, 200)}`);
        }
        return ok;
      };
      try {
        for (let turn = 1; !stop; turn++) {
          await one('GET /api/settings', { method: 'GET', path: '/api/settings', headers: key });
          await one('POST /api/ai/chat', { method: 'POST', path: '/api/ai/chat', headers: jwt, body: { messages: [{ role: 'user', content: `Turn ${turn}` }], model: MODEL } });
          c.sent++;
          if (await one('POST /api/chat', { method: 'POST', path: '/api/chat', headers: c.session, body: { agentId: c.agentId, content: `Hello ${turn}` } }, (body) => body.includes('"reply"'))) c.answered++;
          await one('POST /api/memory', { method: 'POST', path: '/api/memory', headers: c.session, body: { agentId: c.agentId, key: `k${turn % 5}`, memory: { turn } } });
          if (turn % 5 === 0) await one('GET /api/agents/:id/messages', { method: 'GET', path: `/api/agents/${c.agentId}/messages`, headers: c.session });
        }
      } finally {
        agent.destroy();
      }
    });

    const rows: Minute[] = [];
    let stmtPrev = statements ? await statementStats(owner) : new Map<string, Stmt>();
    let stmtFirst = new Map<string, Stmt>();
    let stmtLast = new Map<string, Stmt>();
    const cpu = { service: cpuMs(app.pid!, false), hosts: sum(descendants(app.pid!).map((p) => cpuMs(p, false))), postgres: cpuMs(pgPid, true) + sum(descendants(pgPid).map((p) => cpuMs(p, false))) };
    const started = performance.now();
    for (let m = 1; m <= minutes; m++) {
      if (m === 1 || m === minutes) await snapshots(app, owner, callers, m);
      await sleep(Math.max(0, started + m * minuteMs - performance.now()));
      const b = bucket;
      bucket = freshBucket();
      const row = await measure(m, b, base, app.pid!, pgPid, owner, cpu);
      rows.push(row);
      printMinute(row);
      if (inspect) {
        const host = descendants(app.pid!)[0];
        if (m === 1 && host) process.kill(host, 'SIGUSR1');
        const [svc, h] = await Promise.all([heapAfterGc(SERVICE_INSPECT_PORT), heapAfterGc(9229)]);
        console.log(`        heap after a full GC: service ${svc}, host 1 ${h}`);
      }
      await printVacuum(owner);
      if (statements) {
        const snap = await statementStats(owner);
        printHot(diffStats(snap, stmtPrev));
        if (m === 1) stmtFirst = diffStats(snap, stmtPrev);
        if (m === minutes) stmtLast = diffStats(snap, stmtPrev);
        stmtPrev = snap;
      }
    }
    stop = true;
    await Promise.all(loops);
    for (const e of firstErrors) console.log(`  error: ${e}`);
    if (statements) printStatements(stmtFirst, stmtLast, minutes);
    const lost = await lostMessages(owner, callers);
    const failed = report(rows, lost);
    if (failed) process.exitCode = 1;
  } finally {
    await owner.end();
    if (app) await stopProcess(app, 20_000);
    if (provider) await stopProcess(provider, 5_000);
    // SOAK_KEEP_DATABASE=1 with SOAK_DATABASE_URL: the database stays, to read its plans afterwards
    if (process.env.SOAK_KEEP_DATABASE === '1' && process.env.SOAK_DATABASE_URL) console.log(`database kept: ${db.url.replace(/\/\/[^@]*@/, '//…@')}`);
    else await db.drop();
  }
}

function freshBucket() {
  return { lat: Object.fromEntries(ROUTES.map((r) => [r, [] as number[]])) as Record<Route, number[]>, errors: 0 };
}

async function makeCaller(base: string, owner: pg.Pool, i: number): Promise<Caller> {
  const email = `soak-${i}-${randomBytes(3).toString('hex')}@example.test`;
  const reg = await send(base, 'POST', '/api/register', {}, { email, password: PASSWORD });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.body}`);
  const id = (JSON.parse(reg.body) as { id: string }).id;
  const subscription = `sub_soak_${randomBytes(6).toString('hex')}`;
  await owner.query(
    `insert into subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at) values ($1, $2, 'subscription', 'checkout', 'network', 'active', now())`,
    [subscription, id],
  );
  await owner.query('update users set credits = 1000000000 where id = $1', [id]);
  const session = await signIn(base, email);
  const key = (JSON.parse((await must(send(base, 'POST', '/api/keys', session, { name: 'soak' }))).body) as { key: string }).key;
  const jwt = (JSON.parse((await must(send(base, 'POST', '/api/auth/token', { authorization: `Bearer ${key}` }, {}))).body) as { token: string }).token;
  const agent = await send(base, 'POST', '/api/agents/provision', session, { name: `Soak ${i}` });
  if (agent.status !== 201) throw new Error(`provision: ${agent.status} ${agent.body}`);
  return { id, subscription, email, session, key, jwt, agentId: (JSON.parse(agent.body) as { agent: { id: string } }).agent.id, sent: 0, answered: 0 };
}

/** One minute's figures: the bucket's latencies, then memory, heap and rows as they are now. */
async function measure(minute: number, b: ReturnType<typeof freshBucket>, base: string, servicePid: number, pgPid: number, owner: pg.Pool, cpu: { service: number; hosts: number; postgres: number }): Promise<Minute> {
  const perRoute = {} as Minute['perRoute'];
  let requests = 0;
  const all: number[] = [];
  for (const r of ROUTES) {
    const q = quantiles(b.lat[r]);
    perRoute[r] = { n: b.lat[r].length, ...q };
    requests += b.lat[r].length;
    all.push(...b.lat[r]);
  }
  const rssMb: Record<string, number> = { service: rss(servicePid) };
  const pssMb: Record<string, number> = { service: pss(servicePid) };
  for (const [i, pid] of descendants(servicePid).entries()) {
    rssMb[`host ${i + 1}`] = rss(pid);
    pssMb[`host ${i + 1}`] = pss(pid);
  }
  const pgParts = [pgPid, ...descendants(pgPid)].map(pssParts);
  const pgPssMb = sum(pgParts.map((p) => p.pss));
  const pgSharedMb = sum(pgParts.map((p) => p.shmem));
  const segment = await owner.query<{ mb: number; total: number }>(
    `select (select sum(allocated_size) from pg_shmem_allocations)::float8 / 1048576 as mb,
            (select setting::int from pg_settings where name = 'shared_buffers') as total`,
  );
  const used = await owner.query<{ n: number }>('select count(*)::int as n from pg_buffercache where relfilenode is not null').catch(() => ({ rows: [{ n: NaN }] }));
  const now = { service: cpuMs(servicePid, false), hosts: sum(descendants(servicePid).map((p) => cpuMs(p, false))), postgres: cpuMs(pgPid, true) + sum(descendants(pgPid).map((p) => cpuMs(p, false))) };
  const cpuPerRequest = { service: (now.service - cpu.service) / requests, hosts: (now.hosts - cpu.hosts) / requests, postgres: (now.postgres - cpu.postgres) / requests };
  Object.assign(cpu, now);
  const prom = await scrape(base);
  const tableRows: Minute['rows'] = {};
  const stats = await owner.query<{ t: string; live: string; dead: string }>(
    `select case when schemaname = 'public' then relname else schemaname || '.' || relname end as t, n_live_tup as live, n_dead_tup as dead from pg_stat_all_tables where schemaname in ('public', 'pgboss')`,
  );
  for (const s of stats.rows) if (GROWING.includes(s.t)) tableRows[s.t] = { live: Number(s.live), dead: Number(s.dead) };
  return {
    minute, requests, errors: b.errors, perRoute, p99All: quantiles(all).p99, rssMb, pssMb, pgPssMb,
    pgOwnMb: pgPssMb - pgSharedMb, pgSharedMb, pgSegmentMb: segment.rows[0]!.mb, pgBuffersUsed: used.rows[0]!.n, pgBuffersTotal: segment.rows[0]!.total,
    heapUsedMb: (prom.nodejs_heap_size_used_bytes ?? NaN) / 2 ** 20, heapTotalMb: (prom.nodejs_heap_size_total_bytes ?? NaN) / 2 ** 20,
    handles: prom.nodejs_active_handles_total ?? NaN, lagP99Ms: (prom.nodejs_eventloop_lag_p99_seconds ?? NaN) * 1000, cpuPerRequest, rows: tableRows,
  };
}

function printMinute(m: Minute) {
  const routes = ROUTES.map((r) => `${SHORT[r]} ${m.perRoute[r].n} ${m.perRoute[r].p50.toFixed(1)}/${m.perRoute[r].p99.toFixed(1)}`).join(' | ');
  const hosts = Object.entries(m.rssMb).filter(([k]) => k.startsWith('host')).map(([, v]) => v);
  const hostsPss = Object.entries(m.pssMb).filter(([k]) => k.startsWith('host')).map(([, v]) => v);
  const rows = Object.entries(m.rows).filter(([, v]) => v.live + v.dead > 0).map(([k, v]) => `${k} ${v.live}${v.dead ? `+${v.dead}d` : ''}`).join(', ');
  console.log(
    `min ${String(m.minute).padStart(2)}: ${m.requests} req, ${m.errors} err, p99 ${m.p99All.toFixed(1)} ms | ${routes} (n p50/p99 ms)\n` +
      `        service RSS ${m.rssMb.service!.toFixed(0)} MB, heap ${m.heapUsedMb.toFixed(1)}/${m.heapTotalMb.toFixed(1)} MB, handles ${m.handles}, lag p99 ${m.lagP99Ms.toFixed(1)} ms | ` +
      `${hosts.length} hosts RSS ${sum(hosts).toFixed(0)} MB (${Math.min(...hosts).toFixed(0)}..${Math.max(...hosts).toFixed(0)}), PSS ${sum(hostsPss).toFixed(0)} MB | service PSS ${m.pssMb.service!.toFixed(0)} MB | PostgreSQL PSS ${m.pgPssMb.toFixed(0)} MB (own ${m.pgOwnMb.toFixed(0)}, shared ${m.pgSharedMb.toFixed(0)} of a ${m.pgSegmentMb.toFixed(0)} MB segment; buffers in use ${m.pgBuffersUsed} of ${m.pgBuffersTotal})\n` +
      `        CPU per request: service ${m.cpuPerRequest.service.toFixed(2)} ms, agent hosts ${m.cpuPerRequest.hosts.toFixed(2)} ms, PostgreSQL ${m.cpuPerRequest.postgres.toFixed(2)} ms\n` +
      `        rows (live+dead): ${rows}`,
  );
}

/** The first period against the last, and the targets; true when one fails. */
function report(rows: Minute[], lost: { sent: number; stored: number; unanswered: number }): boolean {
  const span = rows.length >= 10 ? 5 : 1;
  const first = rows.slice(0, span);
  const last = rows.slice(-span);
  const base = rows[Math.min(rows.length, span === 5 ? 5 : 1) - 1]!;
  const end = rows.at(-1)!;
  const avg = (xs: Minute[], f: (m: Minute) => number) => sum(xs.map(f)) / xs.length;
  const lines: { figure: string; a: number; b: number; unit: string; pass?: boolean; target?: string }[] = [];
  const rpmA = avg(first, (m) => m.requests);
  const rpmB = avg(last, (m) => m.requests);
  lines.push({ figure: 'requests per minute', a: rpmA, b: rpmB, unit: '', pass: rpmB >= 0.95 * rpmA, target: '≥ 95%' });
  const p99A = avg(first, (m) => m.p99All);
  const p99B = avg(last, (m) => m.p99All);
  lines.push({ figure: 'p99, all routes (ms)', a: p99A, b: p99B, unit: 'ms', pass: p99B <= 1.1 * p99A, target: '≤ +10%' });
  for (const r of ROUTES) {
    lines.push({ figure: `  ${r} p50 (ms)`, a: avg(first, (m) => m.perRoute[r].p50), b: avg(last, (m) => m.perRoute[r].p50), unit: 'ms' });
    lines.push({ figure: `  ${r} p99 (ms)`, a: avg(first, (m) => m.perRoute[r].p99), b: avg(last, (m) => m.perRoute[r].p99), unit: 'ms' });
  }
  // Memory after the warm-up: on a run of 15 minutes or more, the mean of minutes 6-10 against the
  // mean of the last five (one minute's sample swings with the collector's timing); shorter, minute 5
  // (or 1) against the last.
  const warm = rows.length >= 15 ? rows.slice(5, 10) : [base];
  const tail = rows.length >= 15 ? last : [end];
  const mem = (f: (m: Minute) => number) => ({ a: avg(warm, f), b: avg(tail, f) });
  const memPass = (a: number, b: number) => Math.abs(b - a) <= 0.05 * a;
  const memLine = (figure: string, f: (m: Minute) => number, target = true) => {
    const { a, b } = mem(f);
    lines.push({ figure, a, b, unit: 'MB', ...(target ? { pass: memPass(a, b), target: '±5%' } : {}) });
  };
  memLine('service RSS (MB)', (m) => m.rssMb.service!);
  const hostKeys = Object.keys(base.rssMb).filter((k) => k.startsWith('host'));
  let worst = { k: '', a: 0, b: 0, d: -1 };
  for (const k of hostKeys) {
    const { a, b } = mem((m) => m.rssMb[k] ?? NaN);
    const d = Number.isNaN(b) ? Infinity : Math.abs(b - a) / a;
    if (d > worst.d) worst = { k, a, b, d };
  }
  memLine(`agent hosts RSS, all ${hostKeys.length} (MB)`, (m) => sum(hostKeys.map((k) => m.rssMb[k] ?? 0)), false);
  lines.push({ figure: `  the host that moved most (${worst.k})`, a: worst.a, b: worst.b, unit: 'MB', pass: memPass(worst.a, worst.b), target: '±5%' });
  memLine('service PSS (MB)', (m) => m.pssMb.service!, false);
  memLine(`agent hosts PSS, all ${hostKeys.length} (MB)`, (m) => sum(hostKeys.map((k) => m.pssMb[k] ?? 0)));
  memLine('PostgreSQL PSS (MB)', (m) => m.pgPssMb, false);
  memLine('  its processes\' own memory (MB)', (m) => m.pgOwnMb);
  memLine(`  its share of the shared segment (MB; the segment: ${end.pgSegmentMb.toFixed(0)} MB, fixed at start)`, (m) => m.pgSharedMb, false);
  lines.push({ figure: `  shared buffers holding a page (of ${end.pgBuffersTotal})`, a: avg(warm, (m) => m.pgBuffersUsed), b: avg(tail, (m) => m.pgBuffersUsed), unit: '' });
  lines.push({ figure: 'CPU per request, service (ms)', a: avg(first, (m) => m.cpuPerRequest.service), b: avg(last, (m) => m.cpuPerRequest.service), unit: 'ms' });
  lines.push({ figure: 'CPU per request, agent hosts (ms)', a: avg(first, (m) => m.cpuPerRequest.hosts), b: avg(last, (m) => m.cpuPerRequest.hosts), unit: 'ms' });
  lines.push({ figure: 'CPU per request, PostgreSQL (ms)', a: avg(first, (m) => m.cpuPerRequest.postgres), b: avg(last, (m) => m.cpuPerRequest.postgres), unit: 'ms' });
  memLine('service V8 heap used (MB)', (m) => m.heapUsedMb, false);
  lines.push({ figure: 'service handles', a: avg(warm, (m) => m.handles), b: avg(tail, (m) => m.handles), unit: '' });
  const errors = sum(rows.map((m) => m.errors));
  const total = sum(rows.map((m) => m.requests));

  const label = span === 5 ? ['first 5 min', 'last 5 min'] : ['minute 1', `minute ${end.minute}`];
  console.log(`\n| figure | ${label[0]} | ${label[1]} | change | target |\n|---|---|---|---|---|`);
  for (const l of lines) {
    const change = l.a ? `${((l.b / l.a - 1) * 100).toFixed(1)}%` : '-';
    const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
    const verdict = l.pass === undefined ? '' : `${l.target} ${l.pass ? 'PASS' : 'FAIL'}`;
    console.log(`| ${l.figure} | ${fmt(l.a)} | ${fmt(l.b)} | ${change} | ${verdict} |`);
  }
  const memWhen = rows.length >= 15 ? `the mean of minutes 6-10 against that of minutes ${rows.length - 4}-${rows.length}` : `minute ${base.minute} against minute ${end.minute}`;
  console.log(`(memory: ${memWhen}; throughput and p99: means of the ${span === 5 ? 'five-minute' : 'one-minute'} periods)`);
  console.log(`| errors | ${errors} of ${total} requests | | | 0 ${errors === 0 ? 'PASS' : 'FAIL'} |`);
  const lostOk = lost.stored === lost.sent && lost.unanswered === 0;
  console.log(`| messages lost | ${lost.sent} sent, ${lost.stored} stored, ${lost.unanswered} unanswered | | | 0 ${lostOk ? 'PASS' : 'FAIL'} |`);
  const failed = lines.some((l) => l.pass === false) || errors > 0 || !lostOk;
  console.log(failed ? 'soak: FAIL' : 'soak: PASS');
  return failed;
}

interface Stmt { query: string; calls: number; ms: number; blocks: number; rows: number }

async function statementStats(owner: pg.Pool): Promise<Map<string, Stmt>> {
  const { rows } = await owner.query<{ id: string; query: string; calls: string; ms: number; blocks: string; rows: string }>(
    `select queryid::text as id, query, calls, total_exec_time as ms, shared_blks_hit + shared_blks_read as blocks, rows from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`,
  );
  return new Map(rows.map((r) => [r.id, { query: r.query, calls: Number(r.calls), ms: r.ms, blocks: Number(r.blocks), rows: Number(r.rows) }]));
}

function diffStats(now: Map<string, Stmt>, before: Map<string, Stmt>): Map<string, Stmt> {
  const out = new Map<string, Stmt>();
  for (const [id, s] of now) {
    const b = before.get(id);
    const d = { query: s.query, calls: s.calls - (b?.calls ?? 0), ms: s.ms - (b?.ms ?? 0), blocks: s.blocks - (b?.blocks ?? 0), rows: s.rows - (b?.rows ?? 0) };
    if (d.calls > 0) out.set(id, d);
  }
  return out;
}

/** The tables updated on every call: versions kept (HOT or not), vacuums, size; and the oldest snapshot any session holds (what keeps dead versions from being removed). */
async function printVacuum(owner: pg.Pool) {
  const t = await owner.query<{ relname: string; upd: string; hot: string; vac: string; pages: string; idx: string; dead: string }>(
    `select relname, n_tup_upd as upd, n_tup_hot_upd as hot, autovacuum_count as vac, n_dead_tup as dead,
            pg_relation_size(relid) / 8192 as pages, pg_indexes_size(relid) / 8192 as idx
       from pg_stat_user_tables where relname = any($1::text[]) order by relname`,
    [['daily_usage', 'users', 'usage_reservations', 'api_key_usage', 'agent_memory', 'agent_mailbox', 'instances']],
  );
  const x = await owner.query<{ age: string | null; who: string | null }>(
    `select age(backend_xmin)::text as age, coalesce(application_name, '') || ' ' || state || ' ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as who
       from pg_stat_activity where backend_xmin is not null and pid <> pg_backend_pid() order by age(backend_xmin) desc limit 1`,
  );
  const tables = t.rows.map((r) => `${r.relname} upd ${r.upd} (hot ${r.hot}) dead ${r.dead} vac ${r.vac} pages ${r.pages}+${r.idx}i`).join('; ');
  console.log(`        vacuum: ${tables}\n        oldest snapshot: ${x.rows[0] ? `${x.rows[0].age} xids, ${x.rows[0].who}` : 'none'}`);
}

/** The metering statements of the minute: ms and shared buffers per call. */
function printHot(minute: Map<string, Stmt>) {
  const hot = [...minute.values()].filter((s) => /usage_reservations/i.test(s.query) && s.calls > 100).sort((a, b) => b.calls - a.calls).slice(0, 3);
  console.log(`        metering: ${hot.map((s) => `${(s.ms / s.calls).toFixed(3)} ms ${(s.blocks / s.calls).toFixed(1)} buf x${s.calls} [${s.query.replace(/\s+/g, ' ').slice(0, 40)}]`).join('; ')}`);
}

/** The statements whose time per call grew most from minute 1 to the last: what the growth costs per minute at the last minute's calls. */
function printStatements(first: Map<string, Stmt>, last: Map<string, Stmt>, lastMinute: number) {
  const grown = [...last].map(([id, l]) => {
    const f = first.get(id);
    const perCallF = f ? f.ms / f.calls : NaN;
    const perCallL = l.ms / l.calls;
    return { l, f, perCallF, perCallL, added: f ? (perCallL - perCallF) * l.calls : 0 };
  }).sort((a, b) => b.added - a.added);
  console.log(`\nstatements (pg_stat_statements), minute 1 → minute ${lastMinute}: ms per call, shared buffers per call, calls; the 12 whose time per call grew most`);
  for (const g of grown.slice(0, 12)) {
    const bF = g.f ? (g.f.blocks / g.f.calls).toFixed(1) : '-';
    console.log(`  ${g.perCallF.toFixed(3)} → ${g.perCallL.toFixed(3)} ms, ${bF} → ${(g.l.blocks / g.l.calls).toFixed(1)} buf, ${g.f?.calls ?? 0} → ${g.l.calls} calls  ${g.l.query.replace(/\s+/g, ' ').slice(0, 150)}`);
  }
  const total = (m: Map<string, Stmt>) => [...m.values()].reduce((a, s) => a + s.ms, 0);
  console.log(`  all statements' execution time: minute 1 ${total(first).toFixed(0)} ms, minute ${lastMinute} ${total(last).toFixed(0)} ms`);
}

/** Every message the callers sent is stored with an answer. */
async function lostMessages(owner: pg.Pool, callers: Caller[]) {
  const sent = sum(callers.map((c) => c.sent));
  const { rows } = await owner.query<{ stored: number; unanswered: number }>(
    `select count(*)::int as stored,
            count(*) filter (where not exists (select 1 from agent_messages r where r.agent_id = m.agent_id and r.role = 'assistant' and r.created_at >= m.created_at))::int as unanswered
       from agent_messages m where m.role = 'user' and m.agent_id = any($1::uuid[])`,
    [callers.map((c) => c.agentId)],
  );
  return { sent, stored: rows[0]!.stored, unanswered: rows[0]!.unanswered };
}

/** SOAK_HEAP_SNAPSHOTS and SOAK_EXPLAIN at the first and last minute. */
async function snapshots(app: ChildProcess, owner: pg.Pool, callers: Caller[], minute: number) {
  if (process.env.SOAK_HEAP_SNAPSHOTS === '1') {
    app.kill('SIGUSR2');
    console.log(`  (minute ${minute}: heap snapshot requested from the service, pid ${app.pid})`);
  }
  if (process.env.SOAK_EXPLAIN === '1') await explain(owner, callers[0]!, minute);
}

/** The hot reads' statements as the service sends them, under EXPLAIN (ANALYZE, BUFFERS): planning and execution time, buffers. */
async function explain(owner: pg.Pool, c: Caller, minute: number) {
  const statements: [string, string, unknown[]][] = [
    ['messages page', `select * from agent_messages where agent_id = $1 order by created_at desc, id desc limit 50`, [c.agentId]],
    ['messages total', `select count(*) from agent_messages where agent_id = $1`, [c.agentId]],
    ['queued of the agent', `select 1 from agent_mailbox where agent_id = $1 and status = 'queued' order by seq limit 1`, [c.agentId]],
    ['usage reservations open', `select count(*) from usage_reservations where user_id = $1 and settled_at is null`, [c.id]],
  ];
  for (const [name, sql, params] of statements) {
    const r = await owner.query(`explain (analyze, buffers, format json) ${sql}`, params).catch((e: Error) => ({ rows: [{ 'QUERY PLAN': e.message }] }));
    const plan = (r.rows[0] as { 'QUERY PLAN': unknown })['QUERY PLAN'];
    if (typeof plan === 'string') {
      console.log(`  explain ${name} (minute ${minute}): ${plan}`);
      continue;
    }
    const p = (plan as { Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number; 'Node Type': string }; 'Execution Time': number; 'Planning Time': number }[])[0]!;
    console.log(`  explain ${name} (minute ${minute}): ${p.Plan['Node Type']}, execution ${p['Execution Time'].toFixed(3)} ms, planning ${p['Planning Time'].toFixed(3)} ms, buffers hit ${p.Plan['Shared Hit Blocks']} read ${p.Plan['Shared Read Blocks']}`);
  }
}

async function scrape(base: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(10_000) }).then((r) => r.text(), () => '');
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z0-9_:]+)(?:\{[^}]*\})? ([0-9.eE+-]+)$/.exec(line);
    if (m && !(m[1]! in out)) out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** Through the inspector on `port`: a full GC, then the heap used (MB), as text. */
async function heapAfterGc(port: number): Promise<string> {
  try {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(5000) })).json()) as { webSocketDebuggerUrl: string }[];
    const ws = new WebSocket(list[0]!.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    let next = 1;
    const call = (method: string, params?: object) => new Promise<Record<string, unknown>>((resolve) => {
      const id = next++;
      const on = (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { id?: number; result: Record<string, unknown> };
        if (m.id === id) { ws.off('message', on); resolve(m.result); }
      };
      ws.on('message', on);
      ws.send(JSON.stringify({ id, method, params }));
    });
    // where the resident memory is before the collection: V8's committed heap (young generation
    // included) against what malloc and buffers hold outside it
    const before = (await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as { result?: { value?: string } };
    const mu = JSON.parse(before.result?.value ?? '{}') as Record<string, number>;
    await call('HeapProfiler.collectGarbage');
    const u = (await call('Runtime.getHeapUsage')) as Record<string, number>;
    ws.close();
    const mb = (x: number | undefined) => ((x ?? NaN) / 2 ** 20).toFixed(1);
    return `${(u.usedSize! / 2 ** 20).toFixed(2)} MB (before it: rss ${mb(mu.rss)}, V8 heap committed ${mb(mu.heapTotal)}, used ${mb(mu.heapUsed)}, external ${mb(mu.external)} MB)`;
  } catch (e) {
    return `n/a (${(e as Error).message})`;
  }
}

/** The cluster's postmaster: the parent of this connection's backend (a local PostgreSQL). */
async function postmasterPid(owner: pg.Pool): Promise<number> {
  const { rows } = await owner.query<{ pid: number }>('select pg_backend_pid() as pid');
  return ppid(rows[0]!.pid);
}

/** CPU time (user + system, ms) of a process; `children`: with that of its children it has waited for (exited backends, autovacuum workers). */
function cpuMs(pid: number, children: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    return ((f[11]! + f[12]! + (children ? f[13]! + f[14]! : 0)) * 1000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return 0;
  }
}

function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function pss(pid: number): number {
  return pssParts(pid).pss;
}

/** A process's proportional set size (MB), and its shared-memory part (Pss_Shmem: for PostgreSQL, its share of the shared segment). */
function pssParts(pid: number): { pss: number; shmem: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) / 1024;
    return { pss: kb('Pss'), shmem: kb('Pss_Shmem') };
  } catch {
    return { pss: 0, shmem: 0 };
  }
}

interface Req { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: unknown }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

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
  if (r.status < 200 || r.status >= 300) throw new Error(`set-up: ${r.status} ${r.body.slice(0, 300)}`);
  return r;
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
  const s = Float64Array.from(xs).sort();
  const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN);
  return { p50: at(0.5), p99: at(0.99) };
}

await soak();
process.exit(process.exitCode ?? 0);
