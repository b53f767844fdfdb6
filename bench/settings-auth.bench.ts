import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ChildProcess } from 'node:child_process';
import { baselineService, benchDatabase, benchServiceEnv, cpuPerRequest, freePort, inBatches, loadSpread, median, npmStartEntry, PgBackendCpu, ratio, type Sample, startProcess, stopProcess } from './support.js';

interface Credentials { id: string; cookie: string; key: string; freshKey: string; jwt: string }

/**
 * Authenticated GET /api/settings (session cookie, API key, JWT) for 200 distinct users, the service
 * run as `npm start` runs it (scripts/start.mjs, NODE_ENV=production, compiled, plain node), against
 * two baselines in the same run, as medians of interleaved rounds:
 *
 * - `bare node+pg`: bench/bare-baseline.mjs, plain node, Fastify + pg (pool of 10), one primary-key
 *   SELECT of 5 columns over a table of 200 users, requests spread across the 200 ids: the best this
 *   stack does for one row, the baseline an independent harness uses.
 * - `bare tsx profile`: bench/bare-server.ts under tsx, the service's own (heavier) profile read for one
 *   user, no auth: what the endpoint adds over its own query.
 *
 * Right after a restart, before anything warms up, one round spreads its requests over 200 never-seen
 * API keys: the first use of a key is one bcrypt, which must not stall the service.
 * BENCH_ROUND_MS sets the length of a round (default: BENCH_SECONDS).
 *
 * A variant measured beside it, round for round, as one more session path (its own process, its
 * own database and 200 users): BENCH_BASELINE_REF=<commit> runs that commit's build (`session @<commit>`),
 * BENCH_VARIANT_NODE_FLAGS="--flag ..." this build with those node flags added (`session +flags`);
 * both together, that commit with those flags. Between two runs the machine's noise (±0.05 of the
 * ratio here) hides what a change is worth; in one run both face the same load.
 */
export async function benchSettingsAuth(opts: { rounds: number; roundMs: number; connections: number; users?: number }) {
  const users = opts.users ?? 200;
  const db = await benchDatabase();
  const [appPort, barePort, bareTsxPort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    ...benchServiceEnv(db.url, appPort, 'api'),
    RATE_LIMIT_AUTH: '100000000',
    // passwords are not what is measured: the cheapest argon2 makes 200 sign-ups quick
    ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1',
  };
  const entry = npmStartEntry();
  let app = await startProcess(entry, env, appPort);
  const owner = new pg.Pool({ connectionString: db.url, max: 2 });
  const children: ChildProcess[] = [];
  const baseline = baselineService();
  const variantFlags = (process.env.BENCH_VARIANT_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  let variant: { name: string; url: string; cookies: Record<string, string>[]; server: ChildProcess; dbName: string; drop(): Promise<void> } | undefined;
  const monitor = await PgBackendCpu.open(db.url);
  try {
    const base = `http://127.0.0.1:${appPort}`;
    const creds = await inBatches(Array.from({ length: users }, (_, i) => i), 8, (i) => makeUser(base, i));
    if (baseline || variantFlags.length > 0) {
      // a baseline's database is migrated by its own service (this build's migrations may be ahead of it)
      const vdb = await benchDatabase(baseline ? { prepare: false } : {});
      const vport = await freePort();
      const server = await startProcess('scripts/start.mjs', { ...env, ...benchServiceEnv(vdb.url, vport, 'api'), RATE_LIMIT_AUTH: '100000000' }, vport, baseline?.cwd, variantFlags);
      const vbase = `http://127.0.0.1:${vport}`;
      const vcreds = await inBatches(Array.from({ length: users }, (_, i) => i), 8, (i) => makeUser(vbase, i));
      const name = `session${baseline ? ` @${baseline.ref}` : ''}${variantFlags.length ? ' +flags' : ''}`;
      await monitor.add(vdb.url);
      variant = { name, url: `${vbase}/api/settings`, cookies: vcreds.map((c) => ({ cookie: c.cookie })), server, dbName: vdb.name, drop: vdb.drop };
      children.push(server);
    }

    // the baseline's table: 200 rows shaped like the users the service reads
    await owner.query('CREATE TABLE bench_bare_users (id uuid PRIMARY KEY, email text NOT NULL, name text, plan text NOT NULL, credits bigint NOT NULL)');
    const bareIds = Array.from({ length: users }, () => randomUUID());
    await owner.query(
      `INSERT INTO bench_bare_users SELECT id, 'bare-' || n || '@example.test', 'Bare ' || n, 'free', 1000 FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
      [bareIds],
    );
    await owner.query('ANALYZE bench_bare_users');

    // ---- the first use of 200 keys right after a start ----
    await stopProcess(app);
    app = await startProcess(entry, env, appPort);
    // one round like the others, its 200 keys each first used in this process as the round begins
    const cold = await loadSpread(`${base}/api/settings`, creds.map((c) => ({ authorization: `Bearer ${c.freshKey}` })), { connections: opts.connections, ms: opts.roundMs });

    const bareNode = await startProcess('bench/bare-baseline.mjs', { DATABASE_URL: db.url, BENCH_BARE_TABLE: 'bench_bare_users' }, barePort);
    const bareTsx = await startProcess('bench/bare-server.ts', { DATABASE_URL: db.url, BENCH_USER_ID: creds[0]!.id }, bareTsxPort);
    children.push(bareNode, bareTsx);
    const paths: Record<string, { url: string; variants: Record<string, string>[]; server: ChildProcess; dbName?: string }> = {
      'bare node+pg': { url: `http://127.0.0.1:${barePort}/api/settings`, variants: bareIds.map((id) => ({ 'x-user-id': id })), server: bareNode },
      'bare tsx profile': { url: `http://127.0.0.1:${bareTsxPort}/api/settings`, variants: [{}], server: bareTsx },
      session: { url: `${base}/api/settings`, variants: creds.map((c) => ({ cookie: c.cookie })), server: app },
      apiKey: { url: `${base}/api/settings`, variants: creds.map((c) => ({ authorization: `Bearer ${c.key}` })), server: app },
      jwt: { url: `${base}/api/settings`, variants: creds.map((c) => ({ authorization: `Bearer ${c.jwt}` })), server: app },
      ...(variant ? { [variant.name]: { url: variant.url, variants: variant.cookies, server: variant.server, dbName: variant.dbName } } : {}),
    };
    // warm-up: every credential once (the restarted service proves each key once more), then a second of load
    for (const p of Object.values(paths)) {
      await inBatches(p.variants, 8, (headers) => fetch(p.url, { headers }).then((r) => r.arrayBuffer()));
      await loadSpread(p.url, p.variants, { connections: opts.connections, ms: 1000 });
    }
    const samples: Record<string, (Sample & { cpuUs: number; pgUs: number })[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
    for (let round = 0; round < opts.rounds; round++) {
      // every other round in reverse order, so no path always follows the same one (its process idle as long)
      const order = round % 2 === 0 ? Object.entries(paths) : Object.entries(paths).reverse();
      for (const [name, p] of order) {
        // the server's CPU per request and its PostgreSQL backends' (one path runs at a time: the database's backends are its)
        const s = await cpuPerRequest(p.server.pid, monitor, [p.dbName ?? db.name], () => loadSpread(p.url, p.variants, { connections: opts.connections, ms: opts.roundMs }));
        samples[name]!.push({ ...s, cpuUs: s.serviceUs, pgUs: s.pgUs });
      }
    }
    const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, {
      rps: median(v.map((s) => s.rps)), p50: median(v.map((s) => s.p50)), p99: median(v.map((s) => s.p99)), errors: v.reduce((a, s) => a + s.errors, 0),
      cpuUs: median(v.map((s) => s.cpuUs)), pgUs: median(v.map((s) => s.pgUs)),
    }]));
    const bareCpu = m['bare node+pg']!.cpuUs, barePg = m['bare node+pg']!.pgUs;
    const bare = m['bare node+pg']!.rps, bareTsxRps = m['bare tsx profile']!.rps, session = m.session!.rps, apiKey = m.apiKey!.rps;
    console.log(`\nGET /api/settings, ${users} users, ${opts.connections} connections, ${opts.rounds} interleaved rounds of ${opts.roundMs} ms (medians)`);
    console.log('path               req/s   p50 ms   p99 ms  errors  server CPU µs/req (x bare)  PostgreSQL CPU µs/req (x bare)   req/s: / bare node+pg   / bare tsx profile   / session');
    for (const [name, s] of Object.entries(m)) {
      const r = (x: number) => (s.rps / x).toFixed(2).padStart(6);
      console.log(`${name.padEnd(17)} ${s.rps.toFixed(0).padStart(6)} ${s.p50.toFixed(1).padStart(8)} ${s.p99.toFixed(1).padStart(8)} ${String(s.errors).padStart(7)}  ${s.cpuUs.toFixed(0).padStart(10)} (${ratio(s.cpuUs, bareCpu).padStart(5)})          ${s.pgUs.toFixed(0).padStart(10)} (${ratio(s.pgUs, barePg).padStart(5)})                 ${r(bare)}           ${r(bareTsxRps)}               ${name.startsWith('bare') ? '' : r(session)}`);
    }
    if (variant) console.log(`${variant.name}: ${baseline ? `the build of ${baseline.ref}` : 'this build'}${variantFlags.length ? ` with node flags ${variantFlags.join(' ')}` : ''}, its own process, database and users`);
    console.log('targets: session >= 0.9 of bare node+pg; API key and JWT >= 0.95 of session');
    console.log(`API key, first round right after start (${users} never-seen keys, ${opts.connections} connections, ${opts.roundMs} ms): ${cold.rps.toFixed(0)} req/s (${(cold.rps / apiKey).toFixed(2)} of the warm API-key rate), p50 ${cold.p50.toFixed(0)} ms, p99 ${cold.p99.toFixed(0)} ms, errors ${cold.errors}   target: >= 0.5 of the warm rate`);
    return { paths: m, bareCpu: { serviceUs: bareCpu, pgUs: barePg }, cold, ratios: { sessionToBare: session / bare, sessionToBareTsx: session / bareTsxRps, apiKeyToSession: apiKey / session, jwtToSession: m.jwt!.rps / session, coldToWarmKey: cold.rps / apiKey } };
  } finally {
    await monitor.close();
    for (const c of children) await stopProcess(c, 5000);
    await stopProcess(app);
    await owner.end();
    await db.drop();
    await variant?.drop();
    baseline?.remove();
  }
}

/** One user signed in (session cookie), with a used API key and its JWT, and a second key never used. */
async function makeUser(base: string, i: number): Promise<Credentials> {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const email = `bench-${i}-${randomUUID().slice(0, 8)}@example.test`;
  const reg = await post('/api/register', { email, password: 'bench password' });
  if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const { id } = (await reg.json()) as { id: string };
  const signIn = await post('/api/auth/callback/credentials', { email, password: 'bench password' });
  const cookies = signIn.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const cookie = cookies.join('; ');
  const csrf = cookies.find((c) => c.startsWith('csrf='))!.slice(5);
  const newKey = async (name: string) => ((await (await post('/api/keys', { name }, { cookie, 'x-csrf-token': csrf })).json()) as { key: string }).key;
  const key = await newKey('bench');
  const freshKey = await newKey('bench-never-used');
  const jwt = ((await (await post('/api/auth/token', {}, { authorization: `Bearer ${key}` })).json()) as { token: string }).token;
  return { id, cookie, key, freshKey, jwt };
}
