import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MEMORY_KEYS_PER_AGENT, MEMORY_VALUE_MAX_BYTES } from '../../src/domain/memory/memory-limits.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const { app, infra } = await startTestApp({ env: { RATE_LIMIT_AGENTS: '100000' } });
const owner = infra.pools.owner;

/** A subscriber with one agent (provisioning is enough: memory does not need a runtime). */
async function agentOwner() {
  const user = await signUpAndIn(app);
  await subscribe(owner, user.id, 'solo');
  const agent = (await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Keeper' } })).body.agent;
  return { user, agentId: agent.id as string };
}

const save = (user: SignedIn, payload: unknown) => call(app, { method: 'POST', url: '/api/memory', headers: user.headers, payload: payload as object });
const read = (user: SignedIn, agentId: string) => call(app, { method: 'GET', url: `/api/memory?agentId=${encodeURIComponent(agentId)}`, headers: { cookie: user.cookie } });
const rows = async (agentId: string) => (await owner.query(`select key, value from agent_memory where agent_id = $1 order by key`, [agentId])).rows;
/** A value whose JSON text is exactly `bytes` bytes. */
const valueOf = (bytes: number) => 'x'.repeat(bytes - 2);

describe('GET /api/memory', () => {
  it('when the agent has no memory, then an empty memory with count 0 and lastUpdated null', async () => {
    const { user, agentId } = await agentOwner();
    const res = await read(user, agentId);
    expect(res).toMatchObject({ status: 200, body: { memory: {}, agentId, count: 0, lastUpdated: null } });
  });

  it('when agentId is missing, then 400; another user\'s or an unknown agent, then 404', async () => {
    const { user, agentId } = await agentOwner();
    const other = await signUpAndIn(app);
    expect((await call(app, { method: 'GET', url: '/api/memory', headers: { cookie: user.cookie } })).body.code).toBe('VALIDATION_ERROR');
    expect((await read(other, agentId)).status).toBe(404);
    expect((await read(user, randomUUID())).status).toBe(404);
    expect((await read(user, 'not-a-uuid')).status).toBe(404);
    expect((await call(app, { method: 'GET', url: `/api/memory?agentId=${agentId}` })).status).toBe(401);
  });
});

describe('POST /api/memory', () => {
  it('when one key is saved, then {success, agentId, key, saved} and it reads back with count and lastUpdated', async () => {
    const { user, agentId } = await agentOwner();
    const res = await save(user, { agentId, key: 'favourite', memory: { genre: 'techno', bpm: 128 } });
    expect(res).toEqual(expect.objectContaining({ status: 200, body: { success: true, agentId, key: 'favourite', saved: expect.any(String) } }));
    expect(new Date(res.body.saved).toISOString()).toBe(res.body.saved);
    const back = await read(user, agentId);
    expect(back.body).toEqual({ memory: { favourite: { genre: 'techno', bpm: 128 } }, agentId, count: 1, lastUpdated: res.body.saved });

    // the same key again replaces its value
    expect((await save(user, { agentId, key: 'favourite', memory: 'house' })).status).toBe(200);
    expect((await read(user, agentId)).body).toMatchObject({ memory: { favourite: 'house' }, count: 1 });
  });

  it('when a bulk memory is saved, then {success, agentId, keysUpdated, saved} and every key reads back', async () => {
    const { user, agentId } = await agentOwner();
    const res = await save(user, { agentId, memory: { a: 1, b: [true, null], c: 'three' } });
    expect(res).toEqual(expect.objectContaining({ status: 200, body: { success: true, agentId, keysUpdated: 3, saved: expect.any(String) } }));
    expect((await read(user, agentId)).body).toEqual({ memory: { a: 1, b: [true, null], c: 'three' }, agentId, count: 3, lastUpdated: res.body.saved });
    // also with an API key's bearer token
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'memory' } })).body.key;
    expect((await call(app, { method: 'POST', url: '/api/memory', headers: bearer(key), payload: { agentId, key: 'd', memory: 4 } })).status).toBe(200);
  });

  it('when a value is exactly 100 KB it is kept; one byte over, then 400 and nothing of the request is written', async () => {
    const { user, agentId } = await agentOwner();
    expect((await save(user, { agentId, key: 'big', memory: valueOf(MEMORY_VALUE_MAX_BYTES) })).status).toBe(200);
    const over = await save(user, { agentId, memory: { fine: 1, huge: valueOf(MEMORY_VALUE_MAX_BYTES + 1) } });
    expect(over).toMatchObject({ status: 400, body: { code: 'MEMORY_VALUE_TOO_LARGE', key: 'huge', limit: MEMORY_VALUE_MAX_BYTES } });
    const single = await save(user, { agentId, key: 'big', memory: valueOf(MEMORY_VALUE_MAX_BYTES + 1) });
    expect(single).toMatchObject({ status: 400, body: { code: 'MEMORY_VALUE_TOO_LARGE' } });
    expect((await rows(agentId)).map((r) => [r.key, r.value.length])).toEqual([['big', MEMORY_VALUE_MAX_BYTES - 2]]);
  });

  it('when a bulk write names 51 keys, then 400 and nothing is written; 50 keys of 100 KB each (5 MB) are accepted', async () => {
    const { user, agentId } = await agentOwner();
    const of = (n: number, bytes = 10) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${String(i).padStart(2, '0')}`, valueOf(bytes)]));
    expect(await save(user, { agentId, memory: of(51) })).toMatchObject({ status: 400, body: { code: 'MEMORY_TOO_MANY_KEYS', limit: 50 } });
    expect(await rows(agentId)).toEqual([]);
    const full = await save(user, { agentId, memory: of(50, MEMORY_VALUE_MAX_BYTES) });
    expect(full).toMatchObject({ status: 200, body: { keysUpdated: 50 } });
    expect((await read(user, agentId)).body.count).toBe(50);
  }, 30_000);

  it('when the body is over 6 MB, then 413; between 1 and 6 MB is accepted here while other routes keep 1 MB', async () => {
    const { user, agentId } = await agentOwner();
    const huge = JSON.stringify({ agentId, memory: { a: 'x'.repeat(6 * 1024 * 1024) } });
    const res = await call(app, { method: 'POST', url: '/api/memory', headers: { ...user.headers, 'content-type': 'application/json' }, payload: huge });
    expect(res).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    // 2 MB on /api/memory: parsed, then refused by the value limit (400), not by the body limit
    const twoMb = JSON.stringify({ agentId, memory: { a: 'x'.repeat(2 * 1024 * 1024) } });
    expect((await call(app, { method: 'POST', url: '/api/memory', headers: { ...user.headers, 'content-type': 'application/json' }, payload: twoMb })).body.code).toBe('MEMORY_VALUE_TOO_LARGE');
    const elsewhere = await call(app, { method: 'POST', url: '/api/chat', headers: { ...user.headers, 'content-type': 'application/json' }, payload: twoMb });
    expect(elsewhere.status).toBe(413);
    expect(await rows(agentId)).toEqual([]);
  });

  it('when agentId or memory is missing (or memory is null), or a key breaks the key rules, then 400 and nothing is written', async () => {
    const { user, agentId } = await agentOwner();
    for (const body of [
      { key: 'k', memory: 1 },
      { agentId, key: 'k' },
      { agentId, key: 'k', memory: null },
      { agentId },
      { agentId, memory: 'not an object' },
      { agentId, memory: [1, 2] },
      { agentId, memory: {} },
      { agentId, key: '', memory: 1 },
      { agentId, key: 'k'.repeat(257), memory: 1 },
      { agentId, memory: { ok: 1, '  ': 2 } },
      { agentId, memory: { ok: 1, bad: null } },
    ]) {
      const res = await save(user, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toMatch(/^(VALIDATION_ERROR|MEMORY_KEY_INVALID)$/);
    }
    expect(await rows(agentId)).toEqual([]);
  });

  it('when another user\'s or an unknown agent is named, then 404 and nothing is written', async () => {
    const { user, agentId } = await agentOwner();
    const other = await signUpAndIn(app);
    expect((await save(other, { agentId, key: 'k', memory: 1 })).status).toBe(404);
    expect((await save(other, { agentId, memory: { k: 1 } })).status).toBe(404);
    expect((await save(user, { agentId: randomUUID(), key: 'k', memory: 1 })).status).toBe(404);
    expect(await rows(agentId)).toEqual([]);
    expect((await call(app, { method: 'POST', url: '/api/memory', payload: { agentId, key: 'k', memory: 1 } })).status).toBe(401);
  });

  it('when the agent keeps the most keys an agent may, then a new key is 400 while replacing a stored key still works', async () => {
    const { user, agentId } = await agentOwner();
    await owner.query(
      `insert into agent_memory (agent_id, user_id, key, value) select $1, $2, 'k' || i, '1'::jsonb from generate_series(1, $3::int) i`,
      [agentId, user.id, MEMORY_KEYS_PER_AGENT],
    );
    expect(await save(user, { agentId, key: 'one-more', memory: 1 })).toMatchObject({ status: 400, body: { code: 'MEMORY_KEY_LIMIT_REACHED', limit: MEMORY_KEYS_PER_AGENT } });
    expect((await save(user, { agentId, memory: { k1: 2, k2: 3 } })).status).toBe(200);
    expect((await read(user, agentId)).body.count).toBe(MEMORY_KEYS_PER_AGENT);
  });

  it('when two writes race for the last free key of an agent, then exactly one is stored', async () => {
    const { user, agentId } = await agentOwner();
    await owner.query(
      `insert into agent_memory (agent_id, user_id, key, value) select $1, $2, 'k' || i, '1'::jsonb from generate_series(1, $3::int) i`,
      [agentId, user.id, MEMORY_KEYS_PER_AGENT - 1],
    );
    const results = await Promise.all(['a', 'b', 'c'].map((key) => save(user, { agentId, key, memory: key })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect((await read(user, agentId)).body.count).toBe(MEMORY_KEYS_PER_AGENT);
  });

  it('when memory rows are read as another user at the database, then row-level security hides them', async () => {
    const { user, agentId } = await agentOwner();
    const other = await signUpAndIn(app);
    await save(user, { agentId, key: 'secret', memory: 's' });
    const client = await infra.pools.user.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.user_id', $1, true)`, [other.id]);
      expect((await client.query(`select count(*)::int as n from agent_memory`)).rows[0].n).toBe(0);
      await expect(client.query(`insert into agent_memory (agent_id, user_id, key, value) values ($1, $2, 'x', '1')`, [agentId, user.id])).rejects.toThrow();
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
