import { describe, expect, it } from 'vitest';
import { RouteTimings } from '../../../src/adapters/inbound/http/plugins/route-timings.js';
import { AGENT_RUNTIME } from '../../../src/application/ports/agent-runtime.port.js';
import { HOST_CALLS } from '../../../src/application/ports/host-calls.port.js';
import { bearerToken } from '../../../src/adapters/inbound/http/request-headers.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { parseSse, reservationsOf, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { call, type SignedIn } from '../../support/http-client.js';
import type { TestApp } from '../../support/test-app.js';
import { gatewayTokenOf, runningAgent as startRunning, startChatService } from '../../support/agents/chat-service.js';
import { waitFor } from '../../support/polling.js';

/**
 * The process runtime's service calls answered in the supervisor's process by the door's in-process
 * transport (RUNTIME_SERVICE_CALLS=ipc, the default; decisions 0372 and 0402): the program's chat call travels over its IPC channel and the worker
 * answers it with the use cases behind POST /api/runtime/chat, not over HTTP. The service's URL
 * given to the programs here leads nowhere (port 9): an answer proves the call never left the
 * process. The money rules are the HTTP route's (agent-chat.test.ts): a good call settles once, a
 * refused token or an exhausted allowance spends nothing, a provider failure and a cancelled
 * delivery release what was reserved.
 */

const main = await startChatService({ env: { AGENT_SERVICE_URL: 'http://127.0.0.1:9' } });

async function runningAgent(t: TestApp, plan = 'label') {
  const { user, agent } = await startRunning(t, { plan });
  return { user, agent, gatewayToken: await gatewayTokenOf(t, user.id) };
}

const send = (t: TestApp, user: SignedIn, agentId: string, content: string) =>
  call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId, content } });

/** One call straight to the door's in-process transport (the port the relay uses), as an HTTP request's headers would make it; its answer collected as the relay would send it. */
async function answer(t: TestApp, c: { authorization?: string; accept?: string; body: string }, signal = new AbortController().signal) {
  const got = { status: 0, contentType: '', text: '', ended: false, order: [] as string[] };
  await t.container.resolve(HOST_CALLS).answer(
    { kind: 'chat', token: bearerToken(c.authorization), stream: (c.accept ?? '').includes('text/event-stream'), body: c.body },
    {
      head: (status, contentType) => (got.order.push('head'), Object.assign(got, { status, contentType })),
      chunk: (data) => (got.order.push('chunk'), (got.text += data)),
      end: () => (got.order.push('end'), (got.ended = true)),
    },
    signal,
  );
  return got;
}

const chatBody = (agent: { id: string } & Record<string, any>, content = 'hello') => JSON.stringify({ agentId: agent.id, model: agent.model, messages: [{ role: 'user', content }] });

describe('a process runtime\'s chat call answered in-process', () => {
  it('when an agent answers, then the provider\'s text comes back over IPC (the HTTP URL leads nowhere), and the call is settled once', async () => {
    const { user, agent } = await runningAgent(main);
    const before = await unitsUsed(main.container, user.id);
    const res = await send(main, user, agent.id, 'Hello agent');
    expect(res.status).toBe(200);
    expect(res.body.reply).toMatchObject({ role: 'assistant', content: 'Hello, world!' });
    await expect.poll(async () => (await reservationsOf(main.infra.pools.owner, user.id)).map((r) => r.status)).toEqual(['settled']);
    expect((await unitsUsed(main.container, user.id)).used).toBeGreaterThan(before.used);
  });

  it('when the runtime port is called directly, then JSON or the SSE events, with the HTTP route\'s content types, each settled once', async () => {
    const { user, agent, gatewayToken } = await runningAgent(main);
    const json = await answer(main, { authorization: `Bearer ${gatewayToken}`, body: chatBody(agent) });
    expect(json).toMatchObject({ status: 200, contentType: 'application/json; charset=utf-8', ended: true, order: ['head', 'chunk', 'end'] });
    expect(JSON.parse(json.text)).toEqual({ content: 'Hello, world!', model: agent.model, usage: { promptTokens: 12, completionTokens: 4, totalTokens: 16 } });

    const sse = await answer(main, { authorization: `Bearer ${gatewayToken}`, accept: 'text/event-stream', body: chatBody(agent) });
    expect(sse).toMatchObject({ status: 200, contentType: 'text/event-stream; charset=utf-8', ended: true });
    const events = parseSse(sse.text);
    expect(events.map((e) => e.event)).toEqual(['delta', 'delta', 'delta', 'delta', 'done']);
    expect(events.at(-1)!.data).toEqual({ content: 'Hello, world!', model: agent.model, usage: expect.any(Object) });
    await expect.poll(async () => (await reservationsOf(main.infra.pools.owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled']);
  });

  it('when the gateway token is missing, unknown, another instance\'s or revoked, then 401/404 with the route\'s codes, and nothing is spent', async () => {
    const { user, agent, gatewayToken } = await runningAgent(main);
    const other = await runningAgent(main);
    const owner = main.infra.pools.owner;
    expect(await answer(main, { body: chatBody(agent) })).toMatchObject({ status: 401, ended: true });
    expect(JSON.parse((await answer(main, { body: chatBody(agent) })).text)).toEqual({ error: 'A gateway token is required: Authorization: Bearer <token>', code: 'AUTH_REQUIRED' });
    const parsed = async (authorization: string) => {
      const a = await answer(main, { authorization, body: chatBody(agent) });
      return { status: a.status, body: JSON.parse(a.text) };
    };
    expect(await parsed('Bearer gw_not-a-token')).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
    expect(await parsed(`Bearer ${other.gatewayToken}`)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await parsed(user.headers.cookie ?? 'Cookie x')).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    expect(await reservationsOf(owner, user.id)).toEqual([]);

    // granted once (so the next call reserves while its token is checked), then revoked: the replay spends nothing
    expect((await parsed(`Bearer ${gatewayToken}`)).status).toBe(200);
    const after = await unitsUsed(main.container, user.id);
    await owner.query(`update instances set gateway_token_hash = '\\x00'::bytea where user_id = $1`, [user.id]);
    expect(await parsed(`Bearer ${gatewayToken}`)).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'released']);
    expect(await unitsUsed(main.container, user.id)).toEqual(after);
  });

  it('when a token granted before is revoked, then the check in the reservation\'s own statement refuses it: the provider call begun beside it is cut off, 401, nothing charged; the next call is checked before any provider call', async () => {
    const { user, agent, gatewayToken } = await runningAgent(main);
    const owner = main.infra.pools.owner;
    const authorization = `Bearer ${gatewayToken}`;
    // two good calls: the first grants the token, the second leaves this process a view of the owner's allowance
    for (let i = 0; i < 2; i++) expect((await answer(main, { authorization, body: chatBody(agent) })).status).toBe(200);
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled']);
    const before = await unitsUsed(main.container, user.id);
    // revoked: the instance's token hash replaced by another token's (unique per instance)
    await owner.query(`update instances set gateway_token_hash = sha256(convert_to(gen_random_uuid()::text, 'UTF8')) where user_id = $1`, [user.id]);
    main.provider.requests.length = 0;
    main.provider.setBehaviour({ kind: 'slow', delayMs: 5_000 });
    try {
      // the owner's row held, so the reservation's statement (and its check) waits until the provider has the call
      const db = await owner.connect();
      let refused: Awaited<ReturnType<typeof answer>>;
      try {
        await db.query('begin');
        await db.query('select 1 from users where id = $1 for update', [user.id]);
        const answering = answer(main, { authorization, body: chatBody(agent) });
        await waitFor(async () => main.provider.requests.length, (n) => n === 1, 5_000);
        await db.query('commit');
        refused = await answering;
      } finally {
        db.release();
      }
      expect({ status: refused.status, body: JSON.parse(refused.text) }).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
      await main.provider.requests[0]!.closed;
      expect(main.provider.requests[0]!.closedByClient).toBe(true);
      await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled', 'released']);
      expect(await unitsUsed(main.container, user.id)).toEqual(before);
      // refused once, the token is no longer a guess: its next call never reaches the provider
      main.provider.requests.length = 0;
      const again = await answer(main, { authorization, body: chatBody(agent) });
      expect(JSON.parse(again.text)).toMatchObject({ code: 'TOKEN_INVALID' });
      expect(main.provider.requests).toEqual([]);
      expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled', 'released']);
    } finally {
      main.provider.setBehaviour({ kind: 'reply' });
    }
  });

  it('when the body is not JSON, too large or invalid, then the HTTP edge\'s 400/413 codes, and nothing is reserved', async () => {
    const { user, agent, gatewayToken } = await runningAgent(main);
    const authorization = `Bearer ${gatewayToken}`;
    const codeOf = async (body: string) => {
      const a = await answer(main, { authorization, body });
      return [a.status, JSON.parse(a.text).code];
    };
    expect(await codeOf('{not json')).toEqual([400, 'INVALID_JSON']);
    expect(await codeOf('')).toEqual([400, 'INVALID_JSON']);
    expect(await codeOf(`{"agentId":"${agent.id}","model":"m","messages":[{"role":"user","content":"${'x'.repeat(1024 * 1024)}"}]}`)).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await codeOf(JSON.stringify({ agentId: agent.id, model: agent.model, messages: [] }))).toEqual([400, 'VALIDATION_ERROR']);
    expect(await codeOf(JSON.stringify({ agentId: agent.id, model: agent.model, messages: [{ role: 'user', content: 'a\u0000b' }] }))).toEqual([400, 'VALIDATION_ERROR']);
    expect(await reservationsOf(main.infra.pools.owner, user.id)).toEqual([]);
  });

  it('when the same refused calls are made over HTTP and in-process, then the two answer the same status and body', async () => {
    const { agent, gatewayToken } = await runningAgent(main);
    const other = await runningAgent(main);
    const good = chatBody(agent);
    const cases: { authorization?: string; body: string }[] = [
      { body: good },
      // no token at all is refused before the body is read, on both transports
      { body: '{not json' },
      { authorization: 'Basic abc', body: good },
      { authorization: 'Bearer gw_not-a-token', body: good },
      { authorization: `Bearer ${other.gatewayToken}`, body: good },
      { authorization: `Bearer ${gatewayToken}`, body: '{not json' },
      { authorization: `Bearer ${gatewayToken}`, body: `{"agentId":"${agent.id}","model":"m","messages":[{"role":"user","content":"x"}],"__proto__":{"admin":true}}` },
      { authorization: `Bearer ${gatewayToken}`, body: `{"agentId":"${agent.id}","model":"m","messages":[{"role":"user","content":"x"}],"constructor":{"prototype":{"admin":true}}}` },
      { authorization: `Bearer ${gatewayToken}`, body: `${'['.repeat(70)}${']'.repeat(70)}` },
      { authorization: `Bearer ${gatewayToken}`, body: JSON.stringify({ agentId: agent.id, model: agent.model, messages: [] }) },
      { authorization: `Bearer ${gatewayToken}`, body: JSON.stringify({ agentId: 'not-a-uuid', model: agent.model, messages: [{ role: 'user', content: 'x' }] }) },
      { authorization: `Bearer ${gatewayToken}`, body: JSON.stringify({ agentId: agent.id, model: agent.model, messages: [{ role: 'user', content: 'a\u0000b' }] }) },
    ];
    for (const c of cases) {
      const http = await main.app.inject({ method: 'POST', url: '/api/runtime/chat', headers: { 'content-type': 'application/json', ...(c.authorization ? { authorization: c.authorization } : {}) }, payload: c.body });
      const here = await answer(main, { authorization: c.authorization, body: c.body });
      expect({ status: here.status, body: JSON.parse(here.text) }, c.body.slice(0, 60)).toEqual({ status: http.statusCode, body: JSON.parse(http.body) });
    }
  });

  it('when the provider fails, then 502 PROVIDER_ERROR through the agent and the port, and what was reserved is released', async () => {
    const { user, agent, gatewayToken } = await runningAgent(main);
    const before = await unitsUsed(main.container, user.id);
    main.provider.setBehaviour({ kind: 'error', status: 500 });
    try {
      expect(await send(main, user, agent.id, 'will fail')).toMatchObject({ status: 502, body: { code: 'PROVIDER_ERROR' } });
      const direct = await answer(main, { authorization: `Bearer ${gatewayToken}`, body: chatBody(agent) });
      expect(direct.status).toBe(502);
      expect(JSON.parse(direct.text)).toMatchObject({ error: expect.any(String), code: 'PROVIDER_ERROR' });
    } finally {
      main.provider.setBehaviour({ kind: 'reply' });
    }
    await expect.poll(async () => (await reservationsOf(main.infra.pools.owner, user.id)).map((r) => r.status)).toEqual(['released', 'released']);
    expect(await unitsUsed(main.container, user.id)).toEqual(before);
  });

  it('when calls are answered in-process, then the metrics count them under the HTTP route, the failed ones as errors', async () => {
    const { agent, gatewayToken } = await runningAgent(main);
    const timings = main.container.resolve(RouteTimings);
    const seen = () => timings.snapshot()['POST /api/runtime/chat'] ?? { count: 0, errors: 0 };
    const before = seen();
    expect((await answer(main, { authorization: `Bearer ${gatewayToken}`, body: chatBody(agent) })).status).toBe(200);
    expect((await answer(main, { authorization: `Bearer ${gatewayToken}`, accept: 'text/event-stream', body: chatBody(agent) })).status).toBe(200);
    expect((await answer(main, { body: chatBody(agent) })).status).toBe(401);
    main.provider.setBehaviour({ kind: 'error', status: 500 });
    try {
      expect((await answer(main, { authorization: `Bearer ${gatewayToken}`, body: chatBody(agent) })).status).toBe(502);
    } finally {
      main.provider.setBehaviour({ kind: 'reply' });
    }
    expect(seen()).toMatchObject({ count: before.count + 4, errors: before.errors + 1 });
  });

  it('when the owner has nothing left to spend, then 429 USAGE_EXHAUSTED, and nothing is reserved', async () => {
    const { user, agent, gatewayToken } = await runningAgent(main);
    await main.infra.pools.owner.query(
      `insert into daily_usage (user_id, day, used_units) values ($1, (now() at time zone 'utc')::date, 600)
       on conflict (user_id, day) do update set used_units = 600`,
      [user.id],
    );
    expect(await send(main, user, agent.id, 'expensive')).toMatchObject({ status: 429, body: { code: 'USAGE_EXHAUSTED' } });
    const direct = await answer(main, { authorization: `Bearer ${gatewayToken}`, body: chatBody(agent) });
    expect([direct.status, JSON.parse(direct.text).code]).toEqual([429, 'USAGE_EXHAUSTED']);
    expect((await reservationsOf(main.infra.pools.owner, user.id)).filter((r) => r.status !== 'released')).toEqual([]);
  });

  it('when a delivery is cancelled while the provider answers, then the program drops its call, the in-process call is aborted, and its reservation settled to the prompt the provider has (decision 0419)', async () => {
    const { user, agent } = await runningAgent(main);
    const before = await unitsUsed(main.container, user.id);
    const seen = main.provider.requests.length;
    main.provider.setBehaviour({ kind: 'stall' });
    const controller = new AbortController();
    try {
      const delivery = main.container
        .resolve(AGENT_RUNTIME)
        .deliver(user.id as UserId, { agentId: agent.id, model: agent.model, content: 'cancel me', config: {}, memory: {}, history: [] }, { signal: controller.signal });
      delivery.catch(() => undefined);
      // the provider has the call: the race is now between its answer and the cancel
      await waitFor(async () => main.provider.requests.length, (n) => n > seen);
      await expect.poll(async () => (await reservationsOf(main.infra.pools.owner, user.id)).map((r) => r.status)).toEqual(['open']);
      controller.abort();
      await expect(delivery).rejects.toThrow();
      // cancel → the program aborts its call → service-abort → the use case's signal → the provider call is closed
      await waitFor(async () => main.provider.requests.at(-1)!.closedByClient, (closed) => closed);
    } finally {
      main.provider.setBehaviour({ kind: 'reply' });
    }
    await expect.poll(async () => (await reservationsOf(main.infra.pools.owner, user.id)).map((r) => r.status)).toEqual(['settled']);
    const settled = (await reservationsOf(main.infra.pools.owner, user.id))[0]!.settled_units!;
    expect(settled).toBeGreaterThanOrEqual(1);
    expect(await unitsUsed(main.container, user.id)).toEqual({ ...before, used: before.used + settled });
    // and the agent still answers
    expect((await send(main, user, agent.id, 'and now?')).status).toBe(200);
  });
});
