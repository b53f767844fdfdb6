import { describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../../src/application/errors.js';
import { channelSecretContext } from '../../src/application/ports/channel-provisioning-repository.port.js';
import { LIVE_STREAMS } from '../../src/application/ports/live-streams.port.js';
import { SECRET_BOX } from '../../src/application/ports/secret-box.port.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const ADMIN = uniqueEmail('provision-admin');
const TESTER = uniqueEmail('provision-tester');
const { app, infra, container, logs } = await startTestApp({ env: { ADMIN_EMAILS: ADMIN, TESTER_EMAILS: TESTER, RATE_LIMIT_AUTH: '100000' } });
const owner = infra.pools.owner;

const TOKEN_A = 'bot-token-A-0123456789abcdefSECRET';
const TOKEN_C = 'community-token-C-9876543210SECRET';
const API_KEY = 'provider-key-0f0f0f0f0f0fSECRET';

const provision = (user: SignedIn | null, payload: object) =>
  call(app, { method: 'POST', url: '/api/provision', headers: user?.headers ?? {}, payload });

/** Channel provisionings, agents and provision jobs of a user, as the owner role sees them. */
async function stored(userId: string) {
  const rows = (await owner.query(`select * from channel_provisionings where user_id = $1`, [userId])).rows;
  const agents = (await owner.query(`select id, name, status, config from agents where user_id = $1`, [userId])).rows;
  const jobs = (await owner.query(`select data from pgboss.job where name = 'provision' and data->>'userId' = $1`, [userId])).rows.map((r) => r.data);
  return { rows, agents, jobs };
}
const nothing = { rows: [], agents: [], jobs: [] };

describe('POST /api/provision: the order of the checks', () => {
  it('when the body is bad and no credentials are sent, then 400 (not 401): no channel token, a removed field, an unknown provider or plan', async () => {
    for (const body of [
      { plan: 'solo' },
      { plan: 'solo', channelTokenA: TOKEN_A, phoneNumberIdB: '1' },
      { plan: 'solo', channelTokenB: 'x', businessAccountIdB: '1', guildIdC: '2', channelIdC: '3' },
      { plan: 'solo', channelTokenA: TOKEN_A, aiProvider: 'nope' },
      { plan: 'gold', channelTokenA: TOKEN_A },
      { plan: 'solo', channelTokenA: '' },
    ]) {
      const res = await provision(null, body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    const removed = await provision(null, { plan: 'solo', channelTokenB: 'x', businessAccountIdB: '1', guildIdC: '2', channelIdC: '3' });
    expect(removed.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['body/businessAccountIdB', 'body/channelIdC', 'body/guildIdC'].sort());
  });

  it('when the plan is free or omitted and no credentials are sent, then 402 PAYMENT_REQUIRED (not 401)', async () => {
    for (const body of [{ channelTokenA: TOKEN_A }, { channelTokenA: TOKEN_A, plan: 'free' }]) {
      const res = await provision(null, body);
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ error: expect.any(String), code: 'PAYMENT_REQUIRED' });
    }
  });

  it('when the body and plan are fine but no credentials are sent, then 401', async () => {
    const res = await provision(null, { channelTokenA: TOKEN_A, plan: 'solo', paymentSubscriptionId: 'sub_x' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'AUTH_REQUIRED' });
  });
});

describe('POST /api/provision: payment', () => {
  it('when a subscriber names their own subscription, then 200 with exactly the spec fields; an agent, its row and its provision job are stored', async () => {
    const user = await signUpAndIn(app);
    const sub = await subscribe(owner, user.id, 'collective');
    const res = await provision(user, { channelTokenA: TOKEN_A, channelUserIdA: 'owner-1', channelTokenC: TOKEN_C, apiKey: API_KEY, aiProvider: 'openai', plan: 'solo', paymentSubscriptionId: sub });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      userId: user.id,
      subdomain: `u-${user.id.replace(/-/g, '').slice(0, 16)}`,
      url: `http://127.0.0.1:3000/api/instance/${user.id}`,
      streamKey: expect.stringMatching(/^lsk_[A-Za-z0-9_-]{43}$/),
      liveStreamId: expect.any(String),
    });
    const s = await stored(user.id);
    expect(s.agents).toEqual([{ id: expect.any(String), name: 'Channel agent (A, C)', status: 'provisioning', config: { aiProvider: 'openai', channels: ['A', 'C'] } }]);
    expect(s.jobs).toEqual([{ kind: 'agent.provision', agentId: s.agents[0].id, userId: user.id, plan: 'solo', ramGb: 4 }]);
    expect(s.rows).toHaveLength(1);
    expect(s.rows[0]).toMatchObject({ agent_id: s.agents[0].id, plan: 'solo', ai_provider: 'openai', channel_user_id_a: 'owner-1', live_stream_id: res.body.liveStreamId, channel_token_b_sealed: null });
  });

  it('when the subscription is another user\'s, past_due, below the requested plan, or not named, then 402 and nothing is stored', async () => {
    const other = await signUpAndIn(app);
    const othersSub = await subscribe(owner, other.id, 'network');
    const user = await signUpAndIn(app);
    const pastDue = await subscribe(owner, user.id, 'network', 'past_due');
    const label = await subscribe(owner, user.id, 'label');
    for (const paymentSubscriptionId of [othersSub, pastDue, label, undefined]) {
      const res = await provision(user, { channelTokenA: TOKEN_A, plan: 'solo', ...(paymentSubscriptionId ? { paymentSubscriptionId } : {}) });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 402, code: 'SUBSCRIPTION_REQUIRED' });
    }
    expect(await stored(user.id)).toEqual(nothing);
    expect(await stored(other.id)).toEqual(nothing);
  });

  it('when an admin or a tester sends their own e-mail, then they provision without a subscription (by session, API key and JWT)', async () => {
    const admin = await signUpVerifiedAndIn(app, owner, { email: ADMIN });
    const res = await provision(admin, { channelTokenB: 'phone-token', plan: 'network', email: ADMIN.toUpperCase() });
    expect(res.status).toBe(200);
    expect((await stored(admin.id)).jobs).toEqual([expect.objectContaining({ plan: 'admin', ramGb: 16 })]);

    const tester = await signUpVerifiedAndIn(app, owner, { email: TESTER });
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: tester.headers, payload: { name: 'k' } })).body.key;
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key) })).body.token;
    for (const auth of [key, jwt]) {
      const r = await call(app, { method: 'POST', url: '/api/provision', headers: bearer(auth), payload: { channelTokenA: TOKEN_A, plan: 'collective', email: TESTER } });
      expect(r.status).toBe(200);
    }
    // a tester is held to the requested plan's row: collective, 10 agents, 4 GB
    expect((await stored(tester.id)).jobs).toEqual([expect.objectContaining({ plan: 'collective', ramGb: 4 }), expect.objectContaining({ plan: 'collective', ramGb: 4 })]);
  });

  it('when a non-admin caller sends an admin\'s or tester\'s e-mail, or an admin omits theirs, then it grants nothing: 402', async () => {
    const user = await signUpAndIn(app);
    for (const email of [ADMIN, TESTER]) {
      const res = await provision(user, { channelTokenA: TOKEN_A, plan: 'solo', email });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 402, code: 'SUBSCRIPTION_REQUIRED' });
    }
    expect(await stored(user.id)).toEqual(nothing);
  });

  it('when the plan\'s agent limit is reached, then 429 with current and limit, and nothing more is stored', async () => {
    const user = await signUpAndIn(app);
    const sub = await subscribe(owner, user.id, 'label');
    expect((await provision(user, { channelTokenA: TOKEN_A, plan: 'label', paymentSubscriptionId: sub })).status).toBe(200);
    const res = await provision(user, { channelTokenA: TOKEN_A, plan: 'label', paymentSubscriptionId: sub });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: expect.any(String), code: 'AGENT_LIMIT_REACHED', current: 1, limit: 1 });
    expect((await stored(user.id)).rows).toHaveLength(1);
  });
});

describe('POST /api/provision: secrets', () => {
  it('when tokens and a key are provisioned, then the table holds only ciphertext bound to the owner and field; the app role cannot read it; no log line or response carries them', async () => {
    const user = await signUpAndIn(app);
    const sub = await subscribe(owner, user.id, 'network');
    const res = await provision(user, { channelTokenA: TOKEN_A, channelTokenC: TOKEN_C, apiKey: API_KEY, plan: 'network', paymentSubscriptionId: sub });
    expect(res.status).toBe(200);
    const [row] = (await stored(user.id)).rows;
    const raw = JSON.stringify(row) + Object.values(row).filter(Buffer.isBuffer).map((b) => (b as Buffer).toString('latin1')).join('');
    for (const secret of [TOKEN_A, TOKEN_C, API_KEY, res.body.streamKey]) expect(raw).not.toContain(secret);
    expect(JSON.stringify(res.body)).not.toMatch(/SECRET/);

    const box = container.resolve(SECRET_BOX);
    expect(box.open({ keyId: row.channel_token_a_key_id, ciphertext: row.channel_token_a_sealed }, channelSecretContext(user.id, 'channelTokenA'))).toBe(TOKEN_A);
    expect(box.open({ keyId: row.api_key_key_id, ciphertext: row.api_key_sealed }, channelSecretContext(user.id, 'apiKey'))).toBe(API_KEY);
    // the field and the owner are authenticated: the same bytes under another field or user do not open
    expect(() => box.open({ keyId: row.channel_token_a_key_id, ciphertext: row.channel_token_a_sealed }, channelSecretContext(user.id, 'channelTokenC'))).toThrow();
    expect(() => box.open({ keyId: row.api_key_key_id, ciphertext: row.api_key_sealed }, channelSecretContext(crypto.randomUUID(), 'apiKey'))).toThrow();

    // as the app role, the owner reads the row's plain columns but no secret column
    const client = await infra.pools.user.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.user_id', $1, true)`, [user.id]);
      expect((await client.query('select agent_id, live_stream_id from channel_provisionings')).rows).toHaveLength(1);
      await expect(client.query('select channel_token_a_sealed from channel_provisionings')).rejects.toThrow(/permission denied/);
    } finally {
      await client.query('rollback');
      client.release();
    }

    // a bad body carrying the tokens is logged too (as every error is): still without them
    await provision(user, { channelTokenA: TOKEN_A, apiKey: API_KEY, plan: 'network', phoneNumberIdB: 'x' });
    const all = logs.join('');
    for (const secret of [TOKEN_A, TOKEN_C, API_KEY, res.body.streamKey]) expect(all).not.toContain(secret);
  });

  it('another user reads nothing of a user\'s rows as the app role', async () => {
    const a = await signUpAndIn(app);
    const sub = await subscribe(owner, a.id, 'solo');
    expect((await provision(a, { channelTokenA: TOKEN_A, plan: 'solo', paymentSubscriptionId: sub })).status).toBe(200);
    const b = await signUpAndIn(app);
    const client = await infra.pools.user.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.user_id', $1, true)`, [b.id]);
      expect((await client.query('select id from channel_provisionings')).rows).toEqual([]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('POST /api/provision: failures and limits', () => {
  it('when the live-stream vendor fails, then 502 UPSTREAM_UNAVAILABLE and nothing is stored', async () => {
    const failing = await startTestApp({
      override: (c) => c.register(LIVE_STREAMS, { useValue: { create: async () => { throw new UpstreamUnavailableError('live streams'); } } }),
    });
    const user = await signUpAndIn(failing.app);
    const sub = await subscribe(failing.infra.pools.owner, user.id, 'solo');
    const res = await call(failing.app, { method: 'POST', url: '/api/provision', headers: user.headers, payload: { channelTokenA: TOKEN_A, plan: 'solo', paymentSubscriptionId: sub } });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 502, code: 'UPSTREAM_UNAVAILABLE' });
    const counts = await failing.infra.pools.owner.query(`select (select count(*) from channel_provisionings)::int as rows, (select count(*) from agents)::int as agents`);
    expect(counts.rows[0]).toEqual({ rows: 0, agents: 0 });
  });

  it('when one IP calls more than RATE_LIMIT_AUTH times a minute, then 429 with retry-after, with or without credentials', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_AUTH: '3' } });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await call(limited.app, { method: 'POST', url: '/api/provision', payload: { plan: 'solo' } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect(last!.headers['retry-after']).toBeDefined();
    expect(last!.body.code).toBe('RATE_LIMITED');
  });
});
