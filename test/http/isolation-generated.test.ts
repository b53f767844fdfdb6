import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/adapters/inbound/http/plugins/route-inventory.js';
import { allowed5xx } from '../support/fuzz/allowed-5xx.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { arbitraryOf, fieldsOf, jsonSchemaOf } from '../support/fuzz/schema-arbitrary.js';
import { keepSignedIn, seedUser, type Seeded } from '../support/fuzz/two-users.js';
import { bearer, call } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * Issue 12 item 5, isolation, generated: the user-owned tables are read from the database itself (a
 * `user_id` column and row-level security on), user A gets rows in as many of them as the endpoints
 * allow, and then every registered route is called by user B (by session and by API key) with A's ids
 * in its path, its query and its body. Held: B is refused (400/401/403/404, or 410 for a deprecated
 * route) wherever it named one of A's ids, no answer carries a value of A's rows, and A's rows are
 * exactly as they were. Then the same per table at the database, as the app role acting as B.
 */
const { app, infra } = await startTestApp({
  env: { RATE_LIMIT_AUTH: '1000000', RATE_LIMIT_CHAT: '1000000', RATE_LIMIT_INSTANCE: '1000000', RATE_LIMIT_AGENTS: '1000000', RATE_LIMIT_GATEWAY: '1000000' },
});
const owner = infra.pools.owner;

const a = await seedUser(app, owner, 'iso-a');
const b = await seedUser(app, owner, 'iso-b');
await subscribe(owner, a.user.id, 'label');
// more of A's rows: a skill installed, a heartbeat, a schedule, stateful skills' state
const seedCalls: InjectOptions[] = [
  { method: 'POST', url: '/api/skills', payload: { skillId: 'email', agentId: a.agentId } },
  { method: 'POST', url: '/api/heartbeat', payload: { frequency: '30m', enabled: true } },
  { method: 'POST', url: `/api/agents/${a.agentId}/schedules`, payload: { cron: '0 9 * * *', timezone: 'Europe/Berlin', content: 'A schedule of A' } },
  { method: 'POST', url: '/api/skills/event-scheduler', payload: { action: 'schedule', title: 'A show', date: '2027-03-01', time: '21:30', channels: ['email'] } },
  { method: 'POST', url: '/api/skills/booking-settlement', payload: { action: 'create_escrow', bookingId: 'a-booking', booking: { guarantee: 100, backend: 0.5, deposit: 0 } } },
  // an MCP server of A's agent (its name cannot resolve: stored with its error as status)
  { method: 'POST', url: `/api/agents/${a.agentId}/mcp-servers`, payload: { name: 'a-tools', url: 'https://mcp.invalid/mcp', headers: { authorization: 'Bearer a-secret-of-a' } } },
];
for (const c of seedCalls) {
  const res = await app.inject({ ...c, headers: a.user.headers });
  if (res.statusCode >= 300) throw new Error(`seeding A: ${c.method} ${c.url}: ${res.statusCode} ${res.body}`);
}

/** Tables holding users' rows, as the database says: a user_id column and RLS enabled. */
const userTables: string[] = (
  await owner.query(
    `select c.relname as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and c.relrowsecurity
        and exists (select 1 from pg_attribute x where x.attrelid = c.oid and x.attname = 'user_id' and not x.attisdropped)
      order by 1`,
  )
).rows.map((r) => r.t);

/** A's rows in every user-owned table (and A's users row), as the owner role sees them. */
async function rowsOf(userId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of [...userTables, 'users']) {
    const col = t === 'users' ? 'id' : 'user_id';
    const { rows } = await owner.query(`select to_jsonb(x)::text as j from ${t} x where ${col} = $1 order by 1`, [userId]);
    out[t] = rows.map((r) => r.j);
  }
  return out;
}

/** Values of A's rows distinctive enough that seeing one in B's answer means it leaked: ids and long text. */
function distinctiveValues(rows: Record<string, string[]>, exclude: Set<string>): string[] {
  const found = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string' && (/^[0-9a-f-]{36}$/i.test(v) || (v.length >= 16 && !/^\d{4}-\d\d-\d\d/.test(v)))) found.add(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const list of Object.values(rows)) for (const j of list) walk(JSON.parse(j));
  return [...found].filter((v) => !exclude.has(v));
}

const routes = app.routeInventory();
const idsOfA = [a.user.id, a.agentId, a.apiKeyId];
const ID_FIELD = /(^id$|Id$|_id$|^userId$|^slug$|^bookingId$)/;

/** Requests for a route with A's ids in every path parameter and every id-like query and body field. */
function requestsFor(route: RouteEntry) {
  const params = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const q = jsonSchemaOf(route.schema.querystring);
  const body = jsonSchemaOf(route.schema.body);
  const idFields = { query: fieldsOf(q).filter((f) => ID_FIELD.test(f)), body: fieldsOf(body).filter((f) => ID_FIELD.test(f)) };
  const carriesId = params.length > 0 || idFields.query.length > 0 || idFields.body.length > 0;
  const arb = fc
    .record({
      who: fc.constantFrom('session', 'key'),
      ids: fc.array(fc.constantFrom(...idsOfA), { minLength: params.length + idFields.query.length + idFields.body.length, maxLength: params.length + idFields.query.length + idFields.body.length }),
      query: arbitraryOf(q),
      body: route.method === 'GET' || route.method === 'DELETE' ? fc.constant(undefined) : arbitraryOf(body),
    })
    .map((r) => {
      const ids = [...r.ids];
      const url = route.url.replace(/:([A-Za-z]+)/g, () => ids.shift()!);
      const query = { ...(r.query && typeof r.query === 'object' ? (r.query as object) : {}) } as Record<string, unknown>;
      for (const f of idFields.query) query[f] = ids.shift();
      const payload = r.body && typeof r.body === 'object' && !Array.isArray(r.body) ? { ...(r.body as object) } as Record<string, unknown> : r.body;
      if (payload && typeof payload === 'object') for (const f of idFields.body) (payload as Record<string, unknown>)[f] = ids.shift();
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : String(JSON.stringify(v))]));
      const headers = r.who === 'session' ? b.user.headers : bearer(b.apiKey);
      const options: InjectOptions = { method: route.method as 'GET', url: `${url}${[...qs].length ? `?${qs}` : ''}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) };
      return { who: r.who, options };
    });
  return { carriesId, arb };
}

/** What B may be answered when it names A's ids: refused, never served. */
const REFUSED = [400, 401, 403, 404, 410, 415];
/** B's own plan refused before anything of A's was looked at (POST /api/provision), allowed too. */
const NOT_APPLICABLE = [402];

describe('user B against user A, every route, every user-owned table', () => {
  it('the user-owned tables are found in the database, and A has rows in most of them', async () => {
    const rows = await rowsOf(a.user.id);
    expect(userTables.length).toBeGreaterThan(10);
    const seeded = userTables.filter((t) => rows[t]!.length > 0);
    expect(seeded.length).toBeGreaterThanOrEqual(5);
    console.log(`user-owned tables: ${userTables.length}; A has rows in: ${seeded.join(', ')}`);
  });

  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))("%s as B with A's ids: refused, nothing of A's read or changed", async (name, route) => {
    await keepSignedIn(app, owner, b);
    const before = await rowsOf(a.user.id);
    // values B's own rows hold too (a default model, a plan) say nothing of A
    const secrets = distinctiveValues(before, new Set(distinctiveValues(await rowsOf(b.user.id), new Set())));
    const { carriesId, arb } = requestsFor(route);
    await fc.assert(
      fc.asyncProperty(arb, async ({ who, options }) => {
        const res = await app.inject(options);
        const where = `${who} ${options.method} ${options.url}`;
        if (process.env.ISOLATION_DISCOVER) console.error(`STATUS ${name} ${carriesId} ${res.statusCode} ${res.body.match(/"code":"([A-Z_]+)"/)?.[1] ?? ''}`);
        const ok = (s: number) => (carriesId ? REFUSED.includes(s) || NOT_APPLICABLE.includes(s) : s < 500) || allowed5xx(name, s, res.body);
        expect({ where, status: res.statusCode, body: res.body.slice(0, 300) }).toEqual({ where, status: expect.toSatisfy(ok), body: expect.any(String) });
        expect({ where, leaked: secrets.filter((s) => res.body.includes(s)) }).toEqual({ where, leaked: [] });
      }),
      { numRuns: Number(process.env.ISOLATION_RUNS ?? 6) },
    );
    expect(await rowsOf(a.user.id)).toEqual(before);
  });
});

/**
 * Bodies the generator rarely makes valid (a config object, a verification claim, a stateful skill's
 * action on A's booking): written out, so the ownership check, not the input check, is what answers.
 */
const HAND_WRITTEN: { name: string; req: () => InjectOptions; expect: number[]; body?: (b: Record<string, unknown>) => void }[] = [
  { name: "PUT /api/agents/:id/config on A's agent", req: () => ({ method: 'PUT', url: `/api/agents/${a.agentId}/config`, payload: { systemPrompt: 'B was here' } }), expect: [404] },
  {
    name: "POST /api/agents/:id/verify on A's agent",
    req: () => ({ method: 'POST', url: `/api/agents/${a.agentId}/verify`, payload: { verificationType: 'eas', attestationUid: `0x${'ab'.repeat(32)}`, walletAddress: `0x${'cd'.repeat(20)}` } }),
    expect: [404],
  },
  { name: "DELETE /api/agents/:id/verify on A's agent", req: () => ({ method: 'DELETE', url: `/api/agents/${a.agentId}/verify` }), expect: [404] },
  { name: "POST /api/skills/booking-settlement get A's booking", req: () => ({ method: 'POST', url: '/api/skills/booking-settlement', payload: { action: 'get', bookingId: 'a-booking' } }), expect: [404] },
  {
    name: "POST /api/skills/booking-settlement release A's booking",
    req: () => ({ method: 'POST', url: '/api/skills/booking-settlement', payload: { action: 'release', bookingId: 'a-booking' } }),
    expect: [400, 404],
  },
  {
    name: 'POST /api/skills/event-scheduler list: none of A\'s events',
    req: () => ({ method: 'POST', url: '/api/skills/event-scheduler', payload: { action: 'list' } }),
    expect: [200],
    body: (b) => expect(b).toMatchObject({ count: 0 }),
  },
  { name: "POST /api/memory into A's agent", req: () => ({ method: 'POST', url: '/api/memory', payload: { agentId: a.agentId, key: 'secret', memory: 'overwritten by B' } }), expect: [404] },
  { name: "POST /api/chat to A's agent", req: () => ({ method: 'POST', url: '/api/chat', payload: { agentId: a.agentId, content: 'hello from B' } }), expect: [404] },
];

describe('user B against user A, written out where the generator rarely gets past the input check', () => {
  it.each(HAND_WRITTEN.map((c) => [c.name, c] as const))('%s: refused, A unchanged', async (_name, c) => {
    await keepSignedIn(app, owner, b);
    const before = await rowsOf(a.user.id);
    for (const headers of [b.user.headers, bearer(b.apiKey)]) {
      const res = await app.inject({ ...c.req(), headers });
      expect({ case: c.name, status: res.statusCode, body: res.body.slice(0, 300) }).toEqual({ case: c.name, status: expect.toSatisfy((s: number) => c.expect.includes(s)), body: expect.any(String) });
      c.body?.(res.json());
    }
    expect(await rowsOf(a.user.id)).toEqual(before);
  });
});

describe('the same at the database, per user-owned table, as the app role acting as B', () => {
  it.each(userTables.map((t) => [t]))('%s: B reads none of A\'s rows, changes none, deletes none, inserts none as A', async (table) => {
    const before = await rowsOf(a.user.id);
    const client = await infra.pools.user.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT set_config('app.user_id', $1, true)`, [b.user.id]);
      /** A statement's row count, or its error code (the transaction goes on past it). */
      const attempt = async (sql: string, params: unknown[]): Promise<number | string> => {
        await client.query('SAVEPOINT s');
        try {
          const r = await client.query(sql, params);
          await client.query('RELEASE SAVEPOINT s');
          return r.rowCount ?? 0;
        } catch (e) {
          await client.query('ROLLBACK TO SAVEPOINT s');
          return (e as { code: string }).code;
        }
      };
      const seen = await attempt(`select 1 from ${table} where user_id = $1`, [a.user.id]);
      const touched = await attempt(`update ${table} set user_id = user_id where user_id = $1`, [a.user.id]);
      const removed = await attempt(`delete from ${table} where user_id = $1`, [a.user.id]);
      // only user_id given: the policy's check runs before NOT NULL and CHECK constraints, so a refusal here is the policy's or the grant's
      const inserted = await attempt(`insert into ${table} (user_id) values ($1)`, [a.user.id]);
      // the control: where the role may insert, the same row as B itself gets past the policy (to a constraint or in)
      const mayInsert = (await client.query(`select has_table_privilege(current_user, $1, 'INSERT') as ok`, [table])).rows[0].ok as boolean;
      const asSelf = mayInsert ? await attempt(`insert into ${table} (user_id) values ($1)`, [b.user.id]) : 'not granted';
      await client.query('ROLLBACK');
      // 0 rows, or the role may not even do it (42501); an insert as A: refused by the policy or the grant (42501)
      expect({ table, seen: seen === '42501' ? 0 : seen, touched: touched === '42501' ? 0 : touched, removed: removed === '42501' ? 0 : removed }).toEqual({ table, seen: 0, touched: 0, removed: 0 });
      expect({ table, inserted }).toEqual({ table, inserted: '42501' });
      expect({ table, asSelf }).not.toEqual({ table, asSelf: '42501' });
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
    expect(await rowsOf(a.user.id)).toEqual(before);
  });
});
