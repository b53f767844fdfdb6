import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_ID, LABEL_MODEL_IDS } from '../../src/domain/ai/model-catalog.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, signIn, signUpAndIn, signUpVerifiedAndIn, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const ADMIN = uniqueEmail('agents-admin');
const { app, infra } = await startTestApp({ env: { ADMIN_EMAILS: ADMIN, RATE_LIMIT_AGENTS: '100000' } });
const owner = infra.pools.owner;

const provision = (user: SignedIn, payload: unknown) => call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: payload as object });
const get = (user: SignedIn | null, url: string) => call(app, { method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });

async function subscriber(plan = 'label', status: 'active' | 'trialing' | 'past_due' = 'active') {
  const user = await signUpAndIn(app);
  await subscribe(owner, user.id, plan, status);
  return user;
}

/** Agents and provision jobs of a user, as the owner role sees them. */
async function stored(userId: string) {
  const agents = (await owner.query(`select id, name, model, tier, status, config from agents where user_id = $1 order by created_at, id`, [userId])).rows;
  const jobs = (await owner.query(`select data from pgboss.job where name = 'provision' and data->>'userId' = $1`, [userId])).rows.map((r) => r.data);
  return { agents, jobs };
}

describe('POST /api/agents/provision', () => {
  it('when a subscribed user provisions, then 201 with the agent as provisioning, and its provision job was committed with it', async () => {
    const user = await subscriber('label');
    const res = await provision(user, { name: 'Ada' });
    expect(res.status).toBe(201);
    const { agent } = res.body;
    expect(res.body).toEqual({
      success: true,
      agent: { id: expect.any(String), name: 'Ada', status: 'provisioning', websocketUrl: `ws://127.0.0.1:3000/api/agents/${agent.id}/ws`, model: DEFAULT_MODEL_ID, createdAt: expect.any(String) },
    });
    const s = await stored(user.id);
    expect(s.agents).toEqual([{ id: agent.id, name: 'Ada', model: DEFAULT_MODEL_ID, tier: null, status: 'provisioning', config: {} }]);
    expect(s.jobs).toEqual([{ kind: 'agent.provision', agentId: agent.id, userId: user.id, plan: 'label', ramGb: 8 }]);
  });

  it('when the instance is still provisioning (no worker has run its job), then its stats and the agent\'s answer N/A at once, asking no worker', async () => {
    const user = await subscriber('label');
    const { agent } = (await provision(user, { name: 'Fresh' })).body;
    const started = performance.now();
    const instance = await get(user, `/api/instance/${user.id}/stats`);
    expect(instance.status).toBe(200);
    expect(instance.body).toMatchObject({ status: 'provisioning' });
    const stats = await get(user, `/api/agents/${agent.id}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body.status).toBe('mock');
    // the stats wait for a worker is 5 s: neither call may have waited for one
    expect(performance.now() - started).toBeLessThan(4_000);
    expect((await owner.query(`select count(*)::int as n from instance_commands where user_id = $1`, [user.id])).rows[0].n).toBe(0);
  });

  it('when the model is the other label model or custom, and a tier and config are given, then they are recorded; the tier changes no limit', async () => {
    const user = await subscriber('solo');
    const other = LABEL_MODEL_IDS.find((m) => m !== DEFAULT_MODEL_ID)!;
    expect((await provision(user, { name: 'B', model: other, tier: 'enterprise', config: { systemPrompt: 'Be brief', temperature: 0.2 } })).status).toBe(201);
    expect((await provision(user, { name: 'C', model: 'custom', tier: 'starter' })).status).toBe(201);
    expect((await provision(user, { name: 'D' })).status).toBe(201);
    const fourth = await provision(user, { name: 'E', tier: 'enterprise' });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ error: expect.any(String), code: 'AGENT_LIMIT_REACHED', current: 3, limit: 3 });
    const s = await stored(user.id);
    expect(s.agents.map((a) => [a.name, a.model, a.tier])).toEqual([['B', other, 'enterprise'], ['C', 'custom', 'starter'], ['D', DEFAULT_MODEL_ID, null]]);
    expect(s.agents[0].config).toEqual({ systemPrompt: 'Be brief', temperature: 0.2 });
    expect(s.jobs).toHaveLength(3);
  });

  it('when the user has no subscribed plan (none, or past_due), then 402 SUBSCRIPTION_REQUIRED and nothing is written', async () => {
    const none = await signUpAndIn(app);
    const pastDue = await subscriber('network', 'past_due');
    for (const user of [none, pastDue]) {
      const res = await provision(user, { name: 'Nope' });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 402, code: 'SUBSCRIPTION_REQUIRED' });
      expect(await stored(user.id)).toEqual({ agents: [], jobs: [] });
    }
  });

  it('when the caller is trialing, or an admin without a subscription, then it provisions', async () => {
    expect((await provision(await subscriber('label', 'trialing'), { name: 'T' })).status).toBe(201);
    const admin = await signUpVerifiedAndIn(app, owner, { email: ADMIN });
    const res = await provision(admin, { name: 'Root' });
    expect(res.status).toBe(201);
    expect((await stored(admin.id)).jobs).toEqual([expect.objectContaining({ plan: 'admin', ramGb: 16 })]);
  });

  it('when the caller uses an API key or a JWT, then it is accepted as the session is', async () => {
    const user = await subscriber('collective');
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'k' } })).body.key;
    expect((await call(app, { method: 'POST', url: '/api/agents/provision', headers: bearer(key), payload: { name: 'ByKey' } })).status).toBe(201);
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key) })).body.token;
    expect((await call(app, { method: 'POST', url: '/api/agents/provision', headers: bearer(jwt), payload: { name: 'ByJwt' } })).status).toBe(201);
    expect((await stored(user.id)).agents.map((a) => a.name)).toEqual(['ByKey', 'ByJwt']);
  });

  it('when the body is wrong, then 400 and nothing is written', async () => {
    const user = await subscriber('network');
    const bad: [unknown, string][] = [
      [{}, 'VALIDATION_ERROR'],
      [{ name: '' }, 'VALIDATION_ERROR'],
      [{ name: '   ' }, 'VALIDATION_ERROR'],
      [{ name: 'x'.repeat(65) }, 'VALIDATION_ERROR'],
      [{ name: 42 }, 'VALIDATION_ERROR'],
      [{ name: 'a', model: 'anthropic/claude-sonnet-4-20250514' }, 'UNKNOWN_MODEL'],
      [{ name: 'a', model: 'nope' }, 'UNKNOWN_MODEL'],
      [{ name: 'a', tier: 'gold' }, 'VALIDATION_ERROR'],
      [{ name: 'a', config: [1, 2] }, 'VALIDATION_ERROR'],
      [{ name: 'a', config: 'text' }, 'VALIDATION_ERROR'],
      [{ name: 'a', config: { big: 'x'.repeat(65_536) } }, 'VALIDATION_ERROR'],
    ];
    for (const [body, code] of bad) {
      const res = await provision(user, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code });
    }
    expect(await stored(user.id)).toEqual({ agents: [], jobs: [] });
    // a config of exactly 64 KB fits
    const exact = { k: 'x'.repeat(65_536 - '{"k":""}'.length) };
    expect((await provision(user, { name: 'fits', config: exact })).status).toBe(201);
  });

  it('when concurrent requests arrive one below the limit, then exactly one is provisioned (race-free limit)', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await subscriber('solo'); // 3 agents
      for (const name of ['one', 'two']) expect((await provision(user, { name })).status).toBe(201);
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => provision(user, { name: `racer-${i}` })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 429, 429, 429, 429, 429]);
      const s = await stored(user.id);
      expect(s.agents).toHaveLength(3);
      expect(s.jobs).toHaveLength(3);
    }
  });

  it('without credentials: 401', async () => {
    const res = await call(app, { method: 'POST', url: '/api/agents/provision', payload: { name: 'x' } });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'AUTH_REQUIRED' });
  });
});

describe('listing agents', () => {
  it('GET /api/agents without a session answers an empty list, not 401; with one, only the caller\'s agents', async () => {
    expect(await get(null, '/api/agents')).toMatchObject({ status: 200, body: { agents: [], count: 0, status: 'ok' } });
    const a = await subscriber('solo');
    const b = await subscriber('solo');
    const mine = (await provision(a, { name: 'Mine' })).body.agent;
    await provision(b, { name: 'Theirs' });
    const res = await get(a, '/api/agents');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      agents: [{ id: mine.id, name: 'Mine', model: DEFAULT_MODEL_ID, status: 'provisioning', websocketUrl: mine.websocketUrl, createdAt: mine.createdAt, updatedAt: expect.any(String) }],
      count: 1,
      status: 'ok',
    });
    // a bad credential is still a 401, not an empty list
    expect((await call(app, { method: 'GET', url: '/api/agents', headers: bearer('not-a-jwt') })).status).toBe(401);
  });

  it('GET /api/agents/provision lists the caller\'s agents with success and count; 401 without credentials', async () => {
    const a = await subscriber('solo');
    await provision(a, { name: 'P1' });
    const res = await get(a, '/api/agents/provision');
    expect(res.body).toEqual({ success: true, agents: [expect.objectContaining({ name: 'P1' })], count: 1 });
    expect((await get(null, '/api/agents/provision')).status).toBe(401);
  });
});

describe('GET /api/agents/allowance', () => {
  it('when a subscriber asks, then their count, their plan\'s limit and the provision models (the default first); it follows provisioning', async () => {
    const a = await subscriber('solo');
    const other = LABEL_MODEL_IDS.find((m) => m !== DEFAULT_MODEL_ID)!;
    const expected = (current: number) => ({ agents: { current, limit: 3 }, models: [DEFAULT_MODEL_ID, other, 'custom'], defaultModel: DEFAULT_MODEL_ID });
    expect((await get(a, '/api/agents/allowance')).body).toEqual(expected(0));
    await provision(a, { name: 'One' });
    expect((await get(a, '/api/agents/allowance')).body).toEqual(expected(1));
  });

  it('when the caller has no subscribed plan the limit is null (provisioning answers 402); an admin gets the admin limit; 401 without credentials', async () => {
    expect((await get(await subscriber('network', 'past_due'), '/api/agents/allowance')).body.agents).toEqual({ current: 0, limit: null });
    // the admin may have signed up in an earlier test of this file
    const admin = await signUpAndIn(app, { email: ADMIN }).catch(() => signIn(app, ADMIN, 'correct horse battery'));
    const count = (await get(admin, '/api/agents')).body.count;
    expect((await get(admin, '/api/agents/allowance')).body.agents).toEqual({ current: count, limit: 1000 });
    expect((await get(null, '/api/agents/allowance')).status).toBe(401);
  });
});

describe('GET /api/agents/:id', () => {
  it('when the owner asks right after provisioning, before the provision job ran, then every instance field is there: the instance is made with the first agent', async () => {
    const a = await subscriber('label');
    const agent = (await provision(a, { name: 'Detail' })).body.agent;
    const before = await get(a, `/api/agents/${agent.id}`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      agent: {
        id: agent.id, status: 'provisioning', startedAt: null, plan: 'label', subdomain: `u-${a.id.replace(/-/g, '').slice(0, 16)}`,
        url: `http://127.0.0.1:3000/api/instance/${a.id}`, runtimeVersion: expect.stringMatching(/\S/), verified: false, verificationType: null, attestationUid: null, verifiedAt: null,
      },
      status: 'ok',
    });
    const instance = await get(a, `/api/instance/${a.id}`);
    expect(instance.status).toBe(200);
    expect(instance.body).toEqual({
      userId: a.id, status: 'provisioning', startedAt: '', subdomain: before.body.agent.subdomain, url: before.body.agent.url, plan: 'label', runtimeVersion: before.body.agent.runtimeVersion,
    });
    // the instance row holds a gateway token from the start (sealed, and its hash), which the job then uses
    expect((await owner.query(`select count(*)::int as n from instances where user_id = $1 and gateway_token_hash is not null`, [a.id])).rows[0].n).toBe(1);

    // a second agent of the same user shares the instance: still one row
    await provision(a, { name: 'Second' });
    expect((await owner.query(`select count(*)::int as n from instances where user_id = $1`, [a.id])).rows[0].n).toBe(1);

    const startedAt = new Date('2026-11-24T10:00:00Z');
    await owner.query(`update instances set status = 'running', started_at = $2, runtime_version = 'agent-host-9' where user_id = $1`, [a.id, startedAt]);
    const after = (await get(a, `/api/agents/${agent.id}`)).body.agent;
    expect(after).toMatchObject({ startedAt: startedAt.toISOString(), plan: 'label', runtimeVersion: 'agent-host-9' });
  });

  it('when another user\'s agent, an unknown id or a malformed id is asked for, then 404; without credentials 401', async () => {
    const a = await subscriber('label');
    const b = await subscriber('label');
    const theirs = (await provision(b, { name: 'Theirs' })).body.agent;
    for (const id of [theirs.id, randomUUID(), 'not-a-uuid', '1']) {
      const res = await get(a, `/api/agents/${id}`);
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 404, code: 'NOT_FOUND' });
    }
    expect((await get(null, `/api/agents/${theirs.id}`)).status).toBe(401);
  });
});

describe('agent config', () => {
  it('GET answers the config; PUT replaces it with the body object (64 KB at most); bad bodies are 400 and change nothing', async () => {
    const a = await subscriber('label');
    const agent = (await provision(a, { name: 'Cfg', config: { systemPrompt: 'one', keep: true } })).body.agent;
    const url = `/api/agents/${agent.id}/config`;
    expect((await get(a, url)).body).toEqual({ config: { systemPrompt: 'one', keep: true } });
    const put = (payload: unknown, user = a) => call(app, { method: 'PUT', url, headers: { ...user.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    const res = await put({ systemPrompt: 'two', temperature: 0.5 });
    expect(res).toMatchObject({ status: 200, body: { success: true, config: { systemPrompt: 'two', temperature: 0.5 } } });
    expect((await get(a, url)).body).toEqual({ config: { systemPrompt: 'two', temperature: 0.5 } });
    for (const bad of [[1], 'text', 7, null, { big: 'x'.repeat(65_536) }]) {
      const r = await put(bad);
      expect({ bad: typeof bad, status: r.status, code: r.body.code }).toEqual({ bad: typeof bad, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect((await get(a, url)).body).toEqual({ config: { systemPrompt: 'two', temperature: 0.5 } });
  });

  it('another user\'s agent: 404 on GET and PUT, and its config is unchanged', async () => {
    const a = await subscriber('label');
    const b = await subscriber('label');
    const theirs = (await provision(b, { name: 'T', config: { secret: 'theirs' } })).body.agent;
    const url = `/api/agents/${theirs.id}/config`;
    expect((await get(a, url)).status).toBe(404);
    expect((await call(app, { method: 'PUT', url, headers: a.headers, payload: { secret: 'mine' } })).status).toBe(404);
    expect((await call(app, { method: 'PUT', url: '/api/agents/not-a-uuid/config', headers: a.headers, payload: {} })).status).toBe(404);
    expect((await get(b, url)).body).toEqual({ config: { secret: 'theirs' } });
  });
});

describe('GET /api/agents/:id/messages', () => {
  it('pages the agent\'s messages newest first with total, limit and offset; limit above 200 or below 1 is 400; another user\'s agent 404', async () => {
    const a = await subscriber('label');
    const agent = (await provision(a, { name: 'Talker' })).body.agent;
    for (let i = 0; i < 3; i++) {
      await owner.query(`insert into agent_messages (agent_id, user_id, role, content, created_at) values ($1, $2, $3, $4, now() + make_interval(secs => $5))`, [
        agent.id, a.id, i % 2 ? 'assistant' : 'user', `m${i}`, i,
      ]);
    }
    const url = `/api/agents/${agent.id}/messages`;
    const all = await get(a, url);
    expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0, status: 'ok' });
    expect(all.body.messages.map((m: { content: string }) => m.content)).toEqual(['m2', 'm1', 'm0']);
    expect(Object.keys(all.body.messages[0]).sort()).toEqual(['agentId', 'channel', 'content', 'createdAt', 'id', 'role']);
    expect(all.body.messages[0]).toMatchObject({ agentId: agent.id, role: 'user', channel: 'web' });
    const page = await get(a, `${url}?limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1, messages: [{ content: 'm1' }] });
    expect((await get(a, `${url}?limit=200`)).status).toBe(200);
    for (const q of ['limit=201', 'limit=0', 'limit=x', 'offset=-1', 'limit=1.5']) {
      const r = await get(a, `${url}?${q}`);
      expect({ q, status: r.status, code: r.body.code }).toEqual({ q, status: 400, code: 'VALIDATION_ERROR' });
    }
    const b = await subscriber('label');
    expect((await get(b, url)).status).toBe(404);
    expect((await get(b, '/api/agents/nope/messages')).status).toBe(404);
  });
});

describe('deprecated agent routes', () => {
  it.each([
    ['POST', '/api/agents', '/api/agents/provision'],
    ['PUT', `/api/agents/${randomUUID()}`, '/api/agents/:id/config'],
    ['DELETE', `/api/agents/${randomUUID()}`, 'POST /api/agents/:id/remove'],
    ['GET', `/api/agents/${randomUUID()}/logs`, '/api/agents/:id/messages'],
  ] as const)('%s %s: 410 DEPRECATED naming the replacement', async (method, url, use) => {
    const res = await call(app, { method, url, ...(method === 'GET' ? {} : { payload: {} }) });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: expect.any(String), code: 'DEPRECATED', use });
  });
});

describe('rate limit', () => {
  it('RATE_LIMIT_AGENTS per minute per caller, shared by every /api/agents route', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_AGENTS: '3' } });
    const u = await signUpAndIn(limited.app);
    const other = await signUpAndIn(limited.app);
    const urls = ['/api/agents', '/api/agents/provision', `/api/agents/${randomUUID()}`];
    for (const url of urls) expect((await call(limited.app, { method: 'GET', url, headers: { cookie: u.cookie } })).status).not.toBe(429);
    const res = await call(limited.app, { method: 'GET', url: `/api/agents/${randomUUID()}/config`, headers: { cookie: u.cookie } });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('RATE_LIMITED');
    expect(res.headers['retry-after']).toBeDefined();
    expect((await call(limited.app, { method: 'GET', url: '/api/agents', headers: { cookie: other.cookie } })).status).toBe(200);
  });
});
