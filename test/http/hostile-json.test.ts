import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../src/adapters/inbound/http/plugins/bounded-json-parser.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * CONTRACT.md section 8, hostile text and shapes: a lone UTF-16 surrogate anywhere in a JSON body
 * (PostgreSQL's jsonb refuses it, text would keep it altered as U+FFFD) and JSON nested deeper than
 * 64 levels are refused at the edge with 400 VALIDATION_ERROR and nothing stored; every
 * VALIDATION_ERROR says where (`details` with a path), a value of the wrong type included.
 * (NUL has its own file, nul-refused.test.ts, held over every route.)
 */

// The deep-body sweep's caller is an admin, so admin-only routes read the body too.
const ADMIN = uniqueEmail('deep-admin');
const { app, infra } = await startTestApp({ env: { ADMIN_EMAILS: ADMIN, RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_CHAT: '100000', RATE_LIMIT_INSTANCE: '100000', RATE_LIMIT_GATEWAY: '100000' } });
const owner = infra.pools.owner;

async function agentOwner() {
  const user = await signUpAndIn(app);
  await subscribe(owner, user.id, 'solo');
  const agent = (await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Keeper', config: { systemPrompt: 'kept' } } })).body.agent;
  return { user, agentId: agent.id as string };
}

const count = async (table: string) => (await owner.query(`select count(*)::int as n from ${table}`)).rows[0].n as number;
const configOf = async (agentId: string) => (await owner.query('select config from agents where id = $1', [agentId])).rows[0].config;
const memoryRows = async (agentId: string) => (await owner.query('select count(*)::int as n from agent_memory where agent_id = $1', [agentId])).rows[0].n as number;

/** `leaf` inside `depth` arrays: `[[[leaf]]]` is 3 deep. */
const nested = (depth: number, leaf = '"x"') => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
/** `leaf` under `depth` objects: `{"a":{"a":leaf}}` is 2 deep. */
const nestedObjects = (depth: number, leaf: unknown) => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

const expectValidationError = (res: { status: number; body: any }, path: string | RegExp) => {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: typeof path === 'string' ? path : expect.stringMatching(path) })]));
};

describe('a lone UTF-16 surrogate in a JSON body', () => {
  it('PUT /api/agents/{id}/config with one in a value or a nested key: 400 VALIDATION_ERROR naming where, the config unchanged', async () => {
    const { user, agentId } = await agentOwner();
    const put = (payload: object) => call(app, { method: 'PUT', url: `/api/agents/${agentId}/config`, headers: user.headers, payload });
    expectValidationError(await put({ systemPrompt: 'a\ud800b' }), 'body/systemPrompt');
    expectValidationError(await put({ tools: { ['k\udc00']: true } }), /^body\/tools\/k/);
    expectValidationError(await put({ list: [1, { deep: ['\udbff'] }] }), 'body/list/1/deep/0');
    expect(await configOf(agentId)).toEqual({ systemPrompt: 'kept' });
    // a pair is text like any other
    expect((await put({ systemPrompt: 'emoji \ud83d\ude00' })).status).toBe(200);
  });

  it('POST /api/memory with one in a value, a bulk key or a nested key: 400 VALIDATION_ERROR, nothing stored', async () => {
    const { user, agentId } = await agentOwner();
    const save = (payload: object) => call(app, { method: 'POST', url: '/api/memory', headers: user.headers, payload });
    expectValidationError(await save({ agentId, key: 'k', memory: '\ud800' }), 'body/memory');
    expectValidationError(await save({ agentId, memory: { ['bad\ud800']: 1 } }), /^body\/memory\/bad/);
    expectValidationError(await save({ agentId, key: 'k', memory: { a: { ['\udfff']: 'x' } } }), /^body\/memory\/a\//);
    expect(await memoryRows(agentId)).toBe(0);
  });

  it('POST /api/agents/provision with one in config, and a text field (register name): 400, nothing created or stored altered', async () => {
    const user = await signUpAndIn(app);
    await subscribe(owner, user.id, 'solo');
    const agents = await count('agents');
    const provision = await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Lone', config: { systemPrompt: 'x\ud800' } } });
    expectValidationError(provision, 'body/config/systemPrompt');
    const email = uniqueEmail();
    expectValidationError(await call(app, { method: 'POST', url: '/api/register', payload: { email, password: 'long enough pass', name: 'Ann\ud800' } }), 'body/name');
    expect(await count('agents')).toBe(agents);
    expect((await owner.query('select count(*)::int as n from users where email = $1', [email])).rows[0].n).toBe(0);
  });
});

describe('JSON nested deeper than 64 levels', () => {
  it('a memory value nested 20,000 deep: 400 VALIDATION_ERROR, nothing stored; 64 deep is kept', async () => {
    const { user, agentId } = await agentOwner();
    const raw = (value: string) =>
      call(app, { method: 'POST', url: '/api/memory', headers: { ...user.headers, 'content-type': 'application/json' }, payload: `{"agentId":"${agentId}","key":"k","memory":${value}}` });
    expectValidationError(await raw(nested(20_000)), 'body');
    expectValidationError(await raw(nested(JSON_MAX_DEPTH)), 'body'); // 64 arrays inside the body object: 65 levels
    expect(await memoryRows(agentId)).toBe(0);
    expect((await raw(nested(JSON_MAX_DEPTH - 1))).status).toBe(200);
    expect(await memoryRows(agentId)).toBe(1);
  });

  it('PUT /api/agents/{id}/config nested 65 deep: 400, 64 deep is kept; brackets inside strings do not count', async () => {
    const { user, agentId } = await agentOwner();
    const put = (payload: object) => call(app, { method: 'PUT', url: `/api/agents/${agentId}/config`, headers: user.headers, payload });
    expectValidationError(await put(nestedObjects(JSON_MAX_DEPTH + 1, 1) as object), 'body');
    expect(await configOf(agentId)).toEqual({ systemPrompt: 'kept' });
    expect((await put(nestedObjects(JSON_MAX_DEPTH, 1) as object)).status).toBe(200);
    expect((await put({ systemPrompt: '['.repeat(10_000) + '{'.repeat(10_000) })).status).toBe(200);
  });

  it('on every route that reads a JSON body: a body 20,000 deep answers 400 VALIDATION_ERROR, never a 500', async () => {
    const user = await signUpVerifiedAndIn(app, owner, { email: ADMIN });
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'deep' } })).body.key as string;
    const notJson = new Set(['POST /api/webhooks/psp', 'POST /api/checkout']); // signed raw bytes; legacy route reading no body
    const routes = app.routeInventory().filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && !notJson.has(`${r.method} ${r.url}`));
    expect(routes.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const route of routes) {
      const url = route.url.replace(/:([A-Za-z]+)/g, 'x');
      const res = await app.inject({ method: route.method as 'POST', url, headers: { ...bearer(key), 'content-type': 'application/json' }, payload: nested(20_000) });
      const body = res.json();
      // the OpenAI-compatible API answers in OpenAI's error body
      const refused = route.url.startsWith('/v1/') ? body.error?.type === 'invalid_request_error' : body.code === 'VALIDATION_ERROR' && body.details?.[0]?.path === 'body';
      if (res.statusCode !== 400 || !refused) wrong.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('every VALIDATION_ERROR says where', () => {
  it('POST /api/memory with memory a string (the bulk form wants an object): details with the path body/memory', async () => {
    const { user, agentId } = await agentOwner();
    const res = await call(app, { method: 'POST', url: '/api/memory', headers: user.headers, payload: { agentId, memory: 'just text' } });
    expectValidationError(res, 'body/memory');
    expectValidationError(await call(app, { method: 'POST', url: '/api/memory', headers: user.headers, payload: { agentId, memory: { a: 1, b: null } } }), 'body/memory/b');
  });

  it('PUT /api/agents/{id}/config with an array: details with the path body', async () => {
    const { user, agentId } = await agentOwner();
    const res = await call(app, { method: 'PUT', url: `/api/agents/${agentId}/config`, headers: user.headers, payload: [1, 2] as unknown as object });
    expectValidationError(res, 'body');
  });

  it('wrong-typed fields on schema-checked routes: details name each field', async () => {
    const user: SignedIn = await signUpAndIn(app);
    expectValidationError(await call(app, { method: 'POST', url: '/api/memory', headers: user.headers, payload: { agentId: 5, memory: 1 } }), 'body/agentId');
    expectValidationError(await call(app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: 'x', content: 42 } }), 'body/content');
  });
});
