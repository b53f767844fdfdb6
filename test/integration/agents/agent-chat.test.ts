import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAILBOX_SIGNALS } from '../../../src/application/ports/agent-mailbox.port.js';
import { parseSse, reservationsOf, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, type SignedIn } from '../../support/http-client.js';
import type { TestApp } from '../../support/test-app.js';
import { gatewayTokenOf, PLATFORM_KEY, runningAgent as startRunning, startChatService } from '../../support/agents/chat-service.js';
import { waitFor } from '../../support/polling.js';

/**
 * Talking to an agent end to end, in-process: a subscribed user provisions an agent (the provision
 * job run here with the real ProcessAgentRuntime), POST /api/chat queues the message, this
 * process's mailbox dispatcher hands it to the forked agent-host program, which asks the service
 * for the completion over HTTP at POST /api/runtime/chat with its gateway token; the service
 * calls a local fake OpenAI-format provider and meters the owner.
 */

const main = await startChatService();
const mainUrl = main.config.APP_URL;
// a provider that hangs: the request gives up after 1 s, the provider call after 3 s
const hanging = await startChatService({ env: { AGENT_REPLY_TIMEOUT_MS: '1000', AI_TIMEOUT_MS: '3000' } });

/** A subscribed user with a running agent, and its instance's gateway token. */
async function runningAgent(t: TestApp, plan = 'solo', config?: object) {
  const { user, agent } = await startRunning(t, { plan, config });
  return { user, agent, gatewayToken: await gatewayTokenOf(t, user.id) };
}

const send = (app: FastifyInstance, user: SignedIn, agentId: string, content: string) =>
  call(app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId, content } });

async function stored(owner: Pool, agentId: string) {
  const messages = (await owner.query(`select role, content from agent_messages where agent_id = $1 order by created_at, id`, [agentId])).rows;
  const events = (await owner.query(`select kind, duration_ms, reason from agent_events where agent_id = $1 and kind like 'message_%' order by id`, [agentId])).rows;
  const mailbox = (await owner.query(`select status, error_code from agent_mailbox where agent_id = $1 order by seq`, [agentId])).rows;
  return { messages, events, mailbox };
}

const MESSAGE_KEYS = ['agentId', 'channel', 'content', 'createdAt', 'id', 'role'];

describe('POST /api/chat', () => {
  it('when a subscriber talks to a running agent, then the runtime answers through /api/runtime/chat with the fake provider, both messages are stored, and the owner is metered', async () => {
    const { app, infra, container, provider } = main;
    const { user, agent } = await runningAgent(main, 'solo', { systemPrompt: 'You are a test agent.' });
    const before = await unitsUsed(container, user.id);

    const res = await send(app, user, agent.id, 'Hello agent');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'reply']);
    expect(Object.keys(res.body.message).sort()).toEqual(MESSAGE_KEYS);
    expect(res.body.message).toMatchObject({ agentId: agent.id, role: 'user', content: 'Hello agent', channel: 'web' });
    expect(res.body.reply).toMatchObject({ agentId: agent.id, role: 'assistant', content: 'Hello, world!', channel: 'web' });

    // the provider saw the runtime's prompt, with the platform's key
    const sent = provider.lastRequest();
    expect(sent.headers.authorization).toBe(`Bearer ${PLATFORM_KEY}`);
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'You are a test agent.' },
      { role: 'user', content: 'Hello agent' },
    ]);
    // nobody watches the agent live (no websocket): the answer is asked for whole, not streamed
    expect(sent.body.stream).not.toBe(true);

    const s = await stored(infra.pools.owner, agent.id);
    expect(s.messages).toEqual([
      { role: 'user', content: 'Hello agent' },
      { role: 'assistant', content: 'Hello, world!' },
    ]);
    expect(s.events).toEqual([{ kind: 'message_answered', duration_ms: expect.any(Number), reason: null }]);
    expect(s.mailbox).toEqual([{ status: 'answered', error_code: null }]);
    expect((await unitsUsed(container, user.id)).used).toBeGreaterThan(before.used);

    // the history carries both, newest first, in the messages shape
    const page = await call(app, { method: 'GET', url: `/api/chat?agentId=${agent.id}`, headers: { cookie: user.cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 2, limit: 50, offset: 0, status: 'ok' });
    expect(page.body.messages.map((m: { role: string }) => m.role)).toEqual(['assistant', 'user']);
    // the reply this process's worker handed to the waiting request is the stored one, field for field
    expect(page.body.messages[0]).toEqual(res.body.reply);

    // the next message carries the conversation as history
    expect((await send(app, user, agent.id, 'And again')).status).toBe(200);
    expect(provider.lastRequest().body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Hello agent' },
      { role: 'assistant', content: 'Hello, world!' },
      { role: 'user', content: 'And again' },
    ]);
  });

  it('when several messages reach one agent at once, then they are answered one at a time, in order, each seeing the previous answer (never 409)', async () => {
    const { app, infra, provider } = main;
    const { user, agent } = await runningAgent(main);
    provider.setBehaviour({ kind: 'slow', delayMs: 300 });
    try {
      const pending: Promise<Awaited<ReturnType<typeof call>>>[] = [];
      for (const n of [1, 2, 3]) {
        pending.push(send(app, user, agent.id, `message ${n}`));
        // the next one is sent once this one is queued, so the order is known
        await waitFor(() => stored(infra.pools.owner, agent.id), (s) => s.mailbox.length === n);
      }
      const answers = await Promise.all(pending);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers.map((a) => a.body.message.content)).toEqual(['message 1', 'message 2', 'message 3']);
      const calls = provider.requests.filter((r: { body: any }) => r.body?.messages?.some((m: { content: string }) => m.content === 'message 1'));
      // each call was made after the previous answer was stored: it is in the call's history
      expect(calls.map((r: { body: any }) => r.body.messages.slice(1).map((m: { role: string; content: string }) => `${m.role}:${m.content}`))).toEqual([
        ['user:message 1'],
        ['user:message 1', 'assistant:Hello, world!', 'user:message 2'],
        ['user:message 1', 'assistant:Hello, world!', 'user:message 2', 'assistant:Hello, world!', 'user:message 3'],
      ]);
    } finally {
      provider.setBehaviour({ kind: 'reply' });
    }
  });

  it('when a dozen requests wait for their answers at once, then all are answered and Node warns of no listener leak (each wait listens to the shutdown signal, and stops)', async () => {
    const { app } = main;
    const { user, agent } = await runningAgent(main);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => send(app, user, agent.id, `at once ${n}`)));
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
      await new Promise((r) => setImmediate(r)); // a warning is emitted on the next tick
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('when the agent is not running, then 409 AGENT_NOT_RUNNING and nothing is stored', async () => {
    const { app, infra } = main;
    const { user, agent } = await runningAgent(main, 'label');
    await infra.pools.owner.query(`update agents set status = 'stopped' where id = $1`, [agent.id]);
    const res = await send(app, user, agent.id, 'hello?');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), code: 'AGENT_NOT_RUNNING' });
    expect(await stored(infra.pools.owner, agent.id)).toEqual({ messages: [], events: [], mailbox: [] });
  });

  it("when another user names an agent, then 404 on POST and GET, and nothing is stored", async () => {
    const { app, infra } = main;
    const { agent } = await runningAgent(main, 'label');
    const stranger = await signUpAndIn(app);
    expect((await send(app, stranger, agent.id, 'hi')).status).toBe(404);
    expect((await call(app, { method: 'GET', url: `/api/chat?agentId=${agent.id}`, headers: { cookie: stranger.cookie } })).status).toBe(404);
    expect((await send(app, stranger, 'not-a-uuid', 'hi')).status).toBe(404);
    expect((await stored(infra.pools.owner, agent.id)).messages).toEqual([]);
  });

  it('when the input is bad, then 400 VALIDATION_ERROR and nothing is stored', async () => {
    const { app, infra } = main;
    const { user, agent } = await runningAgent(main, 'label');
    for (const payload of [{ agentId: agent.id, content: '' }, { agentId: agent.id, content: 'x'.repeat(32_001) }, { content: 'hi' }, { agentId: agent.id }, { agentId: agent.id, content: 5 }]) {
      const res = await call(app, { method: 'POST', url: '/api/chat', headers: user.headers, payload });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    for (const q of [`agentId=${agent.id}&limit=201`, `agentId=${agent.id}&offset=-1`, 'limit=5']) {
      expect((await call(app, { method: 'GET', url: `/api/chat?${q}`, headers: { cookie: user.cookie } })).status).toBe(400);
    }
    expect((await stored(infra.pools.owner, agent.id)).messages).toEqual([]);
    // the longest message is accepted
    expect((await send(app, user, agent.id, 'y'.repeat(32_000))).status).toBe(200);
  });

  it('when the owner has nothing left to spend, then 429 USAGE_EXHAUSTED, the message stays stored with no reply, and the mailbox moves on', async () => {
    const { app, infra } = main;
    const { user, agent } = await runningAgent(main, 'label');
    await infra.pools.owner.query(
      `insert into daily_usage (user_id, day, used_units) values ($1, (now() at time zone 'utc')::date, 600)
       on conflict (user_id, day) do update set used_units = 600`,
      [user.id],
    );
    const res = await send(app, user, agent.id, 'expensive');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'USAGE_EXHAUSTED' });
    const s = await stored(infra.pools.owner, agent.id);
    expect(s.messages).toEqual([{ role: 'user', content: 'expensive' }]);
    expect(s.mailbox).toEqual([{ status: 'failed', error_code: 'USAGE_EXHAUSTED' }]);
    expect(s.events).toEqual([{ kind: 'message_failed', duration_ms: expect.any(Number), reason: expect.stringContaining('USAGE_EXHAUSTED') }]);
  });

  it('when the provider fails, then 502 PROVIDER_ERROR, the message stays stored, no reply is invented, and the next message is answered', async () => {
    const { app, infra, provider } = main;
    const { user, agent } = await runningAgent(main, 'label');
    provider.setBehaviour({ kind: 'error', status: 500 });
    try {
      const res = await send(app, user, agent.id, 'will fail');
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ error: expect.any(String), code: 'PROVIDER_ERROR' });
    } finally {
      provider.setBehaviour({ kind: 'reply' });
    }
    expect((await send(app, user, agent.id, 'try again')).status).toBe(200);
    const s = await stored(infra.pools.owner, agent.id);
    expect(s.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'user', 'assistant']);
    expect(s.mailbox.map((m: { status: string }) => m.status)).toEqual(['failed', 'answered']);
    // the settlement is booked after the answer is sent (ChatMetering), so it may land a moment later
    await expect.poll(async () => (await reservationsOf(infra.pools.owner, user.id)).map((r) => r.status)).toEqual(['released', 'settled']);
  });

  it('when the provider hangs, then 202 {message, pending} after AGENT_REPLY_TIMEOUT_MS; the failure is stored later, the reservation released, and the mailbox moves on', async () => {
    const { app, infra, provider } = hanging;
    const { user, agent } = await runningAgent(hanging, 'label');
    provider.setBehaviour({ kind: 'stall' });
    let res;
    try {
      res = await send(app, user, agent.id, 'are you there?');
      expect(res.status).toBe(202);
      expect(Object.keys(res.body).sort()).toEqual(['message', 'pending']);
      expect(res.body.pending).toBe(true);
      expect(res.body.message).toMatchObject({ role: 'user', content: 'are you there?' });
      // the mailbox is read after the events: wait for both, or a failure committed between the two reads looks eventless
      const later = await waitFor(() => stored(infra.pools.owner, agent.id), (s) => s.mailbox[0]?.status === 'failed' && s.events.length > 0);
      expect(later.mailbox).toEqual([{ status: 'failed', error_code: 'PROVIDER_ERROR' }]);
      expect(later.messages).toEqual([{ role: 'user', content: 'are you there?' }]);
      expect(later.events).toEqual([{ kind: 'message_failed', duration_ms: expect.any(Number), reason: expect.any(String) }]);
    } finally {
      provider.setBehaviour({ kind: 'reply' });
    }
    await expect.poll(async () => (await reservationsOf(infra.pools.owner, user.id)).map((r) => r.status)).toEqual(['released']);
    expect((await send(app, user, agent.id, 'and now?')).status).toBe(200);
  });
});

describe('POST /api/runtime/chat', () => {
  it('when the runtime calls with its gateway token, then JSON {content, model, usage} or the SSE events, metered to the owner', async () => {
    const { app, container } = main;
    const { user, agent, gatewayToken } = await runningAgent(main, 'label');
    const body = { agentId: agent.id, model: agent.model, messages: [{ role: 'user', content: 'direct' }] };
    const before = await unitsUsed(container, user.id);
    const json = await call(app, { method: 'POST', url: '/api/runtime/chat', headers: bearer(gatewayToken), payload: body });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ content: 'Hello, world!', model: agent.model, usage: { promptTokens: 12, completionTokens: 4, totalTokens: 16 } });
    expect((await unitsUsed(container, user.id)).used).toBeGreaterThan(before.used);

    const sse = await app.inject({ method: 'POST', url: '/api/runtime/chat', headers: { ...bearer(gatewayToken), accept: 'text/event-stream' }, payload: body });
    expect(sse.statusCode).toBe(200);
    const events = parseSse(sse.body);
    expect(events.map((e) => e.event)).toEqual(['delta', 'delta', 'delta', 'delta', 'done']);
    expect(events.at(-1)!.data).toEqual({ content: 'Hello, world!', model: agent.model, usage: expect.any(Object) });
  });

  it("when the owner's subscription lapses between two calls, then the second is 402 and what was reserved during its check is given back", async () => {
    const { app, container, infra } = main;
    const owner = infra.pools.owner;
    const { user, agent, gatewayToken } = await runningAgent(main, 'label');
    // credits, so that something can be reserved even without the plan's daily units
    await owner.query('update users set credits = 5 where id = $1', [user.id]);
    const body = { agentId: agent.id, model: agent.model, messages: [{ role: 'user', content: 'twice' }] };
    const post = () => call(app, { method: 'POST', url: '/api/runtime/chat', headers: bearer(gatewayToken), payload: body });
    expect((await post()).status).toBe(200);
    const after = await unitsUsed(container, user.id);
    await owner.query(`update subscriptions set status = 'canceled' where user_id = $1`, [user.id]);
    expect(await post()).toMatchObject({ status: 402, body: { code: 'SUBSCRIPTION_REQUIRED' } });
    // the call's units were reserved while the token was checked (its last call was granted), then given back
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status).slice(-2)).toEqual(['settled', 'released']);
    expect(await unitsUsed(container, user.id)).toEqual(after);
    // a refused token's next call waits for its check: nothing more is reserved
    expect((await post()).status).toBe(402);
    expect((await reservationsOf(owner, user.id)).map((r) => r.status).slice(-2)).toEqual(['settled', 'released']);
  });

  it("when the token is missing or wrong, or names another instance's agent, then 401 or 404, and a user's own credentials never work there", async () => {
    const { app } = main;
    const { user, agent, gatewayToken } = await runningAgent(main, 'label');
    const other = await runningAgent(main, 'label');
    const body = { agentId: agent.id, model: agent.model, messages: [{ role: 'user', content: 'x' }] };
    const post = (headers: Record<string, string>, payload: object = body) => call(app, { method: 'POST', url: '/api/runtime/chat', headers, payload });

    expect(await post({})).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    expect(await post(bearer('gw_not-a-token'))).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
    expect(await post(bearer(other.gatewayToken))).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await post(bearer(gatewayToken), { ...body, messages: [] })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });

    // the owner's session, API key and JWT are not gateway tokens
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'k' } })).body.key;
    const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: user.headers })).body.token;
    expect(await post(user.headers)).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    expect(await post(bearer(key))).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
    expect(await post(bearer(jwt))).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });

    // and the gateway token works on no other route
    for (const [method, url] of [['GET', '/api/agents/provision'], ['GET', `/api/chat?agentId=${agent.id}`], ['GET', '/api/settings']] as const) {
      expect((await call(app, { method, url, headers: bearer(gatewayToken) })).status).toBe(401);
    }
    expect((await call(app, { method: 'POST', url: '/api/chat', headers: bearer(gatewayToken), payload: { agentId: agent.id, content: 'hi' } })).status).toBe(401);
  });
});

/** Opens the agent's websocket; resolves with the socket and the frames it receives, or with the refusal's status. */
function openSocket(agentId: string, opts: { token?: string; cookie?: string; origin?: string }) {
  const url = `${mainUrl.replace(/^http/, 'ws')}/api/agents/${agentId}/ws${opts.token ? `?token=${encodeURIComponent(opts.token)}` : ''}`;
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.origin) headers.origin = opts.origin;
  const ws = new WebSocket(url, { headers });
  const frames: any[] = [];
  ws.on('message', (data: Buffer) => frames.push(JSON.parse(String(data))));
  return new Promise<{ ws: WebSocket; frames: any[] } | { status: number }>((resolve, reject) => {
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('unexpected-response', (_req: unknown, res: { statusCode: number }) => {
      resolve({ status: res.statusCode });
      ws.terminate();
    });
    ws.on('error', (err: Error) => reject(err));
  });
}

describe('the agent websocket', () => {
  it('when the runtime side opens it with the gateway token and sends a message, then the message and the answer arrive as frames', async () => {
    const { infra } = main;
    const { agent, gatewayToken } = await runningAgent(main, 'label');
    const opened = await openSocket(agent.id, { token: gatewayToken });
    if (!('ws' in opened)) throw new Error(`refused: ${opened.status}`);
    try {
      opened.ws.send(JSON.stringify({ type: 'message', content: 'via socket' }));
      opened.ws.send('not json');
      opened.ws.send(JSON.stringify({ type: 'message', content: '' }));
      const frames = await waitFor(async () => opened.frames, (f) => f.filter((x) => x.type === 'message').length >= 2);
      const messages = frames.filter((f) => f.type === 'message').map((f) => f.message);
      expect(messages.map((m) => [m.role, m.content, m.channel])).toEqual([
        ['user', 'via socket', 'websocket'],
        ['assistant', 'Hello, world!', 'web'],
      ]);
      expect(Object.keys(messages[0]).sort()).toEqual(MESSAGE_KEYS);
      expect(frames.filter((f) => f.type === 'error').map((f) => f.code)).toEqual(['INVALID_JSON', 'VALIDATION_ERROR']);
      // a live view is open: the runtime asked for the answer streamed
      expect(main.provider.lastRequest().body.stream).toBe(true);
      // the answer streamed: its pieces came as deltas, all before the stored reply; the last ones may
      // be announced after it is stored, and are then dropped, so the deltas are the reply's beginning
      const deltas = frames.filter((f) => f.type === 'delta');
      expect('Hello, world!'.startsWith(deltas.map((f) => f.content).join(''))).toBe(true);
      expect(frames.findLastIndex((f) => f.type === 'delta')).toBeLessThan(frames.findIndex((f) => f.type === 'message' && f.message.role === 'assistant'));
      expect((await stored(infra.pools.owner, agent.id)).mailbox).toEqual([{ status: 'answered', error_code: null }]);
    } finally {
      opened.ws.close();
    }
  });

  it('when the owner opens it with the session cookie from the application origin, then messages sent through POST /api/chat are pushed too', async () => {
    const { app } = main;
    const { user, agent } = await runningAgent(main, 'label');
    const opened = await openSocket(agent.id, { cookie: user.cookie, origin: mainUrl });
    if (!('ws' in opened)) throw new Error(`refused: ${opened.status}`);
    try {
      expect((await send(app, user, agent.id, 'over http')).status).toBe(200);
      // Only message frames here: the `running` status of the agent's own start is committed just before
      // the socket opened, and under load its NOTIFY can reach this process after the socket subscribed
      // (the listening backend delivers it on its own schedule). That frame is right, and not this test's.
      const messages = () => opened.frames.filter((f) => f.type === 'message').map((f) => [f.type, f.message.role, f.message.content]);
      expect(await waitFor(async () => messages(), (f) => f.length >= 2)).toEqual([
        ['message', 'user', 'over http'],
        ['message', 'assistant', 'Hello, world!'],
      ]);
      // a lifecycle move, made by whatever process, is pushed as a status frame
      await main.infra.pools.owner.query(`update agents set status = 'stopped' where id = $1`, [agent.id]);
      const statuses = async () => opened.frames.filter((f) => f.type === 'status');
      expect((await waitFor(statuses, (f) => f.some((x) => x.status === 'stopped'))).at(-1)).toEqual({ type: 'status', status: 'stopped' });
    } finally {
      opened.ws.close();
    }
  });

  it('when a piece of an answer is announced after the answer finished, then the socket drops it; a piece of an answer in progress still goes out', async () => {
    const { app, container } = main;
    const { user, agent } = await runningAgent(main, 'label');
    const opened = await openSocket(agent.id, { cookie: user.cookie, origin: mainUrl });
    if (!('ws' in opened)) throw new Error(`refused: ${opened.status}`);
    try {
      const res = await send(app, user, agent.id, 'answered already');
      expect(res.status).toBe(200);
      await waitFor(async () => opened.frames, (f) => f.some((x) => x.type === 'message' && x.message.role === 'assistant'));
      // the worker no longer waits for its last pieces before storing the reply: one may come late
      const signals = container.resolve(MAILBOX_SIGNALS);
      await signals.publishDelta({ agentId: agent.id, userId: user.id as never, messageId: res.body.message.id, content: 'late piece' });
      await signals.publishDelta({ agentId: agent.id, userId: user.id as never, messageId: randomUUID(), content: 'piece in progress' });
      const frames = await waitFor(async () => opened.frames, (f) => f.some((x) => x.type === 'delta' && x.content === 'piece in progress'));
      expect(frames.filter((f) => f.type === 'delta' && f.content === 'late piece')).toEqual([]);
    } finally {
      opened.ws.close();
    }
  });

  it('when the provider fails while the agent answers a socket message, then an error frame PROVIDER_ERROR follows the message, and no reply', async () => {
    const { user, agent } = await runningAgent(main, 'label');
    const opened = await openSocket(agent.id, { cookie: user.cookie, origin: mainUrl });
    if (!('ws' in opened)) throw new Error(`refused: ${opened.status}`);
    main.provider.setBehaviour({ kind: 'error', status: 500 });
    try {
      opened.ws.send(JSON.stringify({ type: 'message', content: 'fails' }));
      // without status frames: the agent's own start may be announced after the socket opened (see above)
      const frames = (await waitFor(async () => opened.frames, (f) => f.some((x) => x.type === 'error'))).filter((f) => f.type !== 'status');
      expect(frames.map((f) => [f.type, f.type === 'message' ? f.message.role : f.code])).toEqual([
        ['message', 'user'],
        ['error', 'PROVIDER_ERROR'],
      ]);
      expect(frames[1]).toEqual({ type: 'error', code: 'PROVIDER_ERROR', error: expect.any(String) });
      expect((await stored(main.infra.pools.owner, agent.id)).mailbox).toEqual([{ status: 'failed', error_code: 'PROVIDER_ERROR' }]);
    } finally {
      main.provider.setBehaviour({ kind: 'reply' });
      opened.ws.close();
    }
  });

  it('when the credentials are missing or wrong, the Origin is foreign, or the agent is another user\'s, then the upgrade is refused', async () => {
    const { user, agent } = await runningAgent(main, 'label');
    const other = await runningAgent(main, 'label');
    expect(await openSocket(agent.id, { origin: mainUrl })).toEqual({ status: 401 });
    expect(await openSocket(agent.id, { cookie: user.cookie, origin: 'http://evil.example' })).toEqual({ status: 403 });
    expect(await openSocket(agent.id, { cookie: user.cookie })).toEqual({ status: 403 });
    expect(await openSocket(agent.id, { token: 'gw_wrong' })).toEqual({ status: 401 });
    expect(await openSocket(agent.id, { token: other.gatewayToken })).toEqual({ status: 404 });
    expect(await openSocket(other.agent.id, { cookie: user.cookie, origin: mainUrl })).toEqual({ status: 404 });
  });
});
