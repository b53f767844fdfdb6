import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { agentCredentialContext } from '../../src/application/ports/agent-credential-repository.port.js';
import { SECRET_BOX } from '../../src/application/ports/secret-box.port.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * GET and POST /api/agent (spec "Agent interaction and chat"; CONTRACT.md section 7 "/api/agent
 * actions"). No worker answers here: a chat to a running agent is queued and answers 202 after
 * AGENT_REPLY_TIMEOUT_MS (the answered path is in test/integration/agents/agent-api-chat.test.ts).
 */
const { app, infra, container, logs } = await startTestApp({ env: { RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_CHAT: '100000', AGENT_REPLY_TIMEOUT_MS: '100' } });
const owner = infra.pools.owner;

const get = (user: SignedIn, query: string) => call(app, { method: 'GET', url: `/api/agent${query}`, headers: { cookie: user.cookie } });
const post = (user: SignedIn, payload: object) => call(app, { method: 'POST', url: '/api/agent', headers: user.headers, payload });

/** A subscribed user with one agent (provisioning; `running` marks it running with no worker). */
async function userWithAgent(running = false) {
  const user = await signUpAndIn(app);
  await subscribe(owner, user.id, 'solo');
  const res = await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Api' } });
  expect(res.status).toBe(201);
  const agent = res.body.agent as { id: string };
  if (running) await owner.query(`update agents set status = 'running' where id = $1`, [agent.id]);
  return { user, agent };
}

/** What a request could have written for a user. */
async function written(userId: string) {
  const q = async (sql: string) => (await owner.query(sql, [userId])).rows;
  return {
    sessions: await q(`select id from agent_sessions where user_id = $1 order by id`),
    credentials: await q(`select agent_id, name, key_id, sealed from agent_credentials where user_id = $1 order by name`),
    messages: await q(`select id from agent_messages where user_id = $1 order by id`),
    mailbox: await q(`select message_id from agent_mailbox where user_id = $1 order by message_id`),
  };
}

const SESSION_KEYS = ['agentId', 'createdAt', 'id', 'lastMessageAt', 'messageCount'];
const MESSAGE_KEYS = ['agentId', 'channel', 'content', 'createdAt', 'id', 'role', 'sessionId'];

describe('GET /api/agent', () => {
  it('when no action is given (or endpoints), then the endpoints and version information', async () => {
    const { user } = await userWithAgent();
    const res = await get(user, '');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: '1', runtimeVersion: expect.stringMatching(/^agent-host-/), endpoints: { get: expect.any(Array), post: expect.any(Array) } });
    expect(res.body.endpoints.get.map((e: { action: string }) => e.action)).toEqual(['endpoints', 'health', 'sessions', 'session', 'memory', 'skills', 'credentials']);
    expect(res.body.endpoints.post.map((e: { action: string }) => e.action)).toEqual(['chat', 'create_session', 'update_skill', 'set_credential']);
    expect((await get(user, '?action=endpoints')).body).toEqual(res.body);
  });

  it('when health is asked, then ok with the version and a timestamp', async () => {
    const { user } = await userWithAgent();
    const res = await get(user, '?action=health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: '1', runtimeVersion: expect.any(String), timestamp: expect.any(String) });
  });

  it('when the action is unknown, then 400 UNKNOWN_ACTION with the allowed actions; a missing parameter is 400 VALIDATION_ERROR', async () => {
    const { user } = await userWithAgent();
    const res = await get(user, '?action=nope');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNKNOWN_ACTION', allowed: expect.arrayContaining(['sessions']) });
    expect((await get(user, '?action=session')).body.code).toBe('VALIDATION_ERROR');
    expect((await get(user, '?action=memory')).body.code).toBe('VALIDATION_ERROR');
  });

  it('when a request has no credentials, then 401; an API key and a JWT are accepted', async () => {
    const { user } = await userWithAgent();
    expect((await call(app, { method: 'GET', url: '/api/agent' })).status).toBe(401);
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'agent-api' } })).body.key;
    expect((await call(app, { method: 'GET', url: '/api/agent?action=sessions', headers: bearer(key) })).status).toBe(200);
    const token = (await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(key) })).body.token;
    expect((await call(app, { method: 'GET', url: '/api/agent?action=sessions', headers: bearer(token) })).status).toBe(200);
  });

  it('when skills are asked before any install, then an empty list; another user agent is 404 (installs: test/http/skills.test.ts)', async () => {
    const { user, agent } = await userWithAgent();
    const other = await userWithAgent();
    expect((await get(user, '?action=skills')).body).toEqual({ skills: [] });
    expect((await get(user, `?action=skills&agentId=${agent.id}`)).body).toEqual({ skills: [] });
    expect((await get(user, `?action=skills&agentId=${other.agent.id}`)).status).toBe(404);
  });
});

describe('sessions', () => {
  it('when a session is created and a chat carries it, then sessions, session and memory show it, newest session first', async () => {
    const { user, agent } = await userWithAgent(true);
    const created = await post(user, { action: 'create_session', agentId: agent.id });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.session).sort()).toEqual(SESSION_KEYS);
    const session = created.body.session;
    expect(session).toMatchObject({ agentId: agent.id, messageCount: 0, lastMessageAt: null });

    const long = 'é'.repeat(150);
    const chat = await post(user, { action: 'chat', agentId: agent.id, content: long, sessionId: session.id });
    // no worker here: the message is queued with its session, and the answer would come later
    expect(chat.status).toBe(202);
    expect(Object.keys(chat.body.message).sort()).toEqual(MESSAGE_KEYS);
    expect(chat.body).toEqual({ message: expect.objectContaining({ agentId: agent.id, role: 'user', content: long, sessionId: session.id }), pending: true });
    const queued = (await owner.query(`select m.session_id, q.status from agent_mailbox q join agent_messages m on m.id = q.message_id where q.agent_id = $1`, [agent.id])).rows;
    expect(queued).toEqual([{ session_id: session.id, status: 'queued' }]);

    const list = await get(user, `?action=sessions&agentId=${agent.id}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ sessions: [{ ...session, messageCount: 1, lastMessageAt: chat.body.message.createdAt }] });
    expect((await get(user, '?action=sessions')).body).toEqual(list.body);

    const one = await get(user, `?action=session&sessionId=${session.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ session: { ...session, messageCount: 1, lastMessageAt: chat.body.message.createdAt, messages: [chat.body.message] } });

    const memory = await get(user, `?action=memory&agentId=${agent.id}`);
    expect(memory.body).toEqual({ agentId: agent.id, sessionId: session.id, messages: [{ ...chat.body.message, content: 'é'.repeat(100) }] });

    // a newer session becomes the active one
    const newer = (await post(user, { action: 'create_session', agentId: agent.id })).body.session;
    expect((await get(user, `?action=sessions&agentId=${agent.id}`)).body.sessions.map((s: { id: string }) => s.id)).toEqual([newer.id, session.id]);
    expect((await get(user, `?action=memory&agentId=${agent.id}`)).body).toEqual({ agentId: agent.id, sessionId: newer.id, messages: [] });
  });

  it('when memory is asked, then only the last 10 messages of the active session, oldest first', async () => {
    const { user, agent } = await userWithAgent(true);
    const session = (await post(user, { action: 'create_session', agentId: agent.id })).body.session;
    for (let i = 1; i <= 12; i++) {
      await owner.query(`insert into agent_messages (agent_id, user_id, role, content, session_id) values ($1, $2, 'user', $3, $4)`, [agent.id, user.id, `m${i}`, session.id]);
    }
    const memory = await get(user, `?action=memory&agentId=${agent.id}`);
    expect(memory.body.messages.map((m: { content: string }) => m.content)).toEqual(['m3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11', 'm12']);
  });

  it('when an agent has no session, then memory is empty with sessionId null', async () => {
    const { user, agent } = await userWithAgent();
    expect((await get(user, `?action=memory&agentId=${agent.id}`)).body).toEqual({ agentId: agent.id, sessionId: null, messages: [] });
  });

  it('when another user agent or session is named, then 404 and nothing is written', async () => {
    const a = await userWithAgent(true);
    const b = await userWithAgent(true);
    const bSession = (await post(b.user, { action: 'create_session', agentId: b.agent.id })).body.session;
    const before = await written(a.user.id);
    const beforeB = await written(b.user.id);
    for (const res of [
      await get(a.user, `?action=session&sessionId=${bSession.id}`),
      await get(a.user, `?action=session&sessionId=not-a-uuid`),
      await get(a.user, `?action=sessions&agentId=${b.agent.id}`),
      await get(a.user, `?action=memory&agentId=${b.agent.id}`),
      await get(a.user, `?action=credentials&agentId=${b.agent.id}`),
      await post(a.user, { action: 'create_session', agentId: b.agent.id }),
      await post(a.user, { action: 'chat', agentId: b.agent.id, content: 'hi' }),
      // B's session on A's own agent: still absent
      await post(a.user, { action: 'chat', agentId: a.agent.id, content: 'hi', sessionId: bSession.id }),
      await post(a.user, { action: 'chat', agentId: a.agent.id, content: 'hi', sessionId: randomUUID() }),
      await post(a.user, { action: 'set_credential', agentId: b.agent.id, name: 'TOKEN', value: 'v' }),
      await post(a.user, { action: 'update_skill', agentId: b.agent.id, skillId: 'web-search', enabled: true }),
    ]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    expect(await written(a.user.id)).toEqual(before);
    expect(await written(b.user.id)).toEqual(beforeB);
    // A's session on A's other agent is refused the same way
    const other = (await call(app, { method: 'POST', url: '/api/agents/provision', headers: a.user.headers, payload: { name: 'Other' } })).body.agent;
    const aSession = (await post(a.user, { action: 'create_session', agentId: a.agent.id })).body.session;
    expect((await post(a.user, { action: 'chat', agentId: other.id, content: 'hi', sessionId: aSession.id })).status).toBe(404);
  });
});

describe('POST /api/agent', () => {
  it('when the action is unknown or missing, or an action field is bad, then 400 and nothing is written', async () => {
    const { user, agent } = await userWithAgent(true);
    const before = await written(user.id);
    const unknown = await post(user, { action: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_ACTION', allowed: ['chat', 'create_session', 'update_skill', 'set_credential'] });
    for (const body of [
      {},
      { action: 'chat', agentId: agent.id },
      { action: 'chat', agentId: agent.id, content: '' },
      { action: 'chat', agentId: agent.id, content: 'x'.repeat(32_001) },
      { action: 'create_session' },
      { action: 'update_skill', agentId: agent.id, skillId: 's', enabled: 'yes' },
      { action: 'set_credential', agentId: agent.id, name: 'bad name', value: 'v' },
      { action: 'set_credential', agentId: agent.id, name: 'OK', value: '' },
      { action: 'set_credential', agentId: agent.id, name: 'OK' },
    ]) {
      const res = await post(user, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect(await written(user.id)).toEqual(before);
  });

  it('when the agent is not running, then chat is 409 AGENT_NOT_RUNNING and nothing is stored', async () => {
    const { user, agent } = await userWithAgent();
    const res = await post(user, { action: 'chat', agentId: agent.id, content: 'hi' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'AGENT_NOT_RUNNING' });
    expect((await written(user.id)).messages).toEqual([]);
  });

  it('when a skill that is not installed is updated, then 404 and nothing changes', async () => {
    const { user, agent } = await userWithAgent();
    const res = await post(user, { action: 'update_skill', agentId: agent.id, skillId: 'web-search', enabled: false });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('credentials', () => {
  it('when a credential is set, then it is sealed at rest (bound to user, agent and name), listed by name only, and never in a response or the log', async () => {
    const { user, agent } = await userWithAgent();
    const value = `secret-${randomUUID()}`;
    const res = await post(user, { action: 'set_credential', agentId: agent.id, name: 'GITHUB_TOKEN', value });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, credential: { agentId: agent.id, name: 'GITHUB_TOKEN', createdAt: expect.any(String), updatedAt: expect.any(String) } });

    const row = (await written(user.id)).credentials[0];
    expect(row.sealed.includes(Buffer.from(value))).toBe(false);
    const box = container.resolve(SECRET_BOX);
    expect(box.open({ keyId: row.key_id, ciphertext: row.sealed }, agentCredentialContext(user.id, agent.id, 'GITHUB_TOKEN'))).toBe(value);
    expect(() => box.open({ keyId: row.key_id, ciphertext: row.sealed }, agentCredentialContext(user.id, agent.id, 'OTHER'))).toThrow();

    // replacing keeps one row; listing shows names only
    const second = `secret-${randomUUID()}`;
    expect((await post(user, { action: 'set_credential', agentId: agent.id, name: 'GITHUB_TOKEN', value: second })).status).toBe(200);
    expect((await post(user, { action: 'set_credential', agentId: agent.id, name: 'API_KEY', value: second })).status).toBe(200);
    const rows = (await written(user.id)).credentials;
    expect(rows.map((r) => r.name)).toEqual(['API_KEY', 'GITHUB_TOKEN']);
    expect(box.open({ keyId: rows[1].key_id, ciphertext: rows[1].sealed }, agentCredentialContext(user.id, agent.id, 'GITHUB_TOKEN'))).toBe(second);

    const listed = await get(user, '?action=credentials');
    expect(listed.body).toEqual({ credentials: [expect.objectContaining({ agentId: agent.id, name: 'API_KEY' }), expect.objectContaining({ agentId: agent.id, name: 'GITHUB_TOKEN' })] });
    expect(Object.keys(listed.body.credentials[0]).sort()).toEqual(['agentId', 'createdAt', 'name', 'updatedAt']);
    expect((await get(user, `?action=credentials&agentId=${agent.id}`)).body).toEqual(listed.body);
    // a refused set (bad name) does not echo the value either
    const refused = await post(user, { action: 'set_credential', agentId: agent.id, name: 'bad name', value });
    expect(refused.status).toBe(400);
    for (const text of [JSON.stringify(res.body), JSON.stringify(listed.body), JSON.stringify(refused.body), logs.join('\n')]) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(second);
    }
  });

  it('when the app role reads the credentials table, then the sealed value is not selectable', async () => {
    const { user, agent } = await userWithAgent();
    await post(user, { action: 'set_credential', agentId: agent.id, name: 'K', value: 'v1' });
    const client = await infra.pools.user.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.user_id', $1, true)`, [user.id]);
      expect((await client.query(`select name from agent_credentials`)).rows).toEqual([{ name: 'K' }]);
      await expect(client.query(`select sealed from agent_credentials`)).rejects.toThrow(/permission denied/);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
