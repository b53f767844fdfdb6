import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { isForbiddenAddress } from '../../src/adapters/outbound/webhooks/http-webhook-delivery.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { freePort } from '../support/free-port.js';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { PRIVATE_TOKEN, startTestMcpServer } from '../support/mcp/test-mcp-server.js';
import { startTestApp } from '../support/test-app.js';
import { waitFor } from '../support/polling.js';

/**
 * /api/agents/:id/mcp-servers (CONTRACT.md "agents' MCP servers", decision 0440) against a real
 * MCP server from the official SDK started here. The app allows private targets (the server is on
 * 127.0.0.1); a second app keeps the default rule, to show what it refuses.
 */
const mcp = await startTestMcpServer();
afterAll(() => mcp.close());
const { app, infra } = await startTestApp({ env: { RATE_LIMIT_AGENTS: '100000', MCP_ALLOW_PRIVATE_TARGETS: 'true', MCP_CALL_TIMEOUT_MS: '5000' } });
const owner = infra.pools.owner;

async function userWithAgent(t = app, plan = 'label') {
  const user = await signUpAndIn(t);
  await subscribe(t === app ? owner : strict.app === t ? strict.infra.pools.owner : owner, user.id, plan);
  const res = await call(t, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Tooled' } });
  expect(res.status).toBe(201);
  return { user, agentId: res.body.agent.id as string };
}

const add = (user: SignedIn, agentId: string, payload: object, t = app) => call(t, { method: 'POST', url: `/api/agents/${agentId}/mcp-servers`, headers: user.headers, payload });
const list = (user: SignedIn, agentId: string, t = app) => call(t, { method: 'GET', url: `/api/agents/${agentId}/mcp-servers`, headers: user.headers });
const refresh = (user: SignedIn, agentId: string, serverId: string) => call(app, { method: 'POST', url: `/api/agents/${agentId}/mcp-servers/${serverId}/refresh`, headers: user.headers });
const remove = (user: SignedIn, agentId: string, serverId: string) => call(app, { method: 'DELETE', url: `/api/agents/${agentId}/mcp-servers/${serverId}`, headers: user.headers });
const rows = async (agentId: string, pool = owner) => (await pool.query(`select name, url, header_names, headers_sealed, allowed_tools, status from agent_mcp_servers where agent_id = $1 order by created_at`, [agentId])).rows;

const OPEN_TOOLS = ['echo', 'fail', 'hang', 'huge', 'flood', 'dotted.name'];

describe('POST /api/agents/:id/mcp-servers', () => {
  it('when a server is added with headers and an allowlist, then its tools are listed through the SDK with the headers, stored as ok, and the header values are sealed and never returned', async () => {
    const { user, agentId } = await userWithAgent();
    const from = mcp.requests.length;
    const res = await add(user, agentId, { name: 'private', url: mcp.privateUrl, headers: { Authorization: PRIVATE_TOKEN }, tools: ['whoami', 'absent'] });
    expect(res.status).toBe(201);
    expect(res.body.server).toEqual({
      id: expect.any(String),
      name: 'private',
      url: mcp.privateUrl,
      tools: ['whoami'],
      allowedTools: ['whoami', 'absent'],
      listedTools: [{ name: 'whoami', description: 'Says who is asking.' }],
      headers: ['Authorization'],
      status: 'ok',
      error: null,
      checkedAt: expect.any(String),
      createdAt: expect.any(String),
    });
    // the server saw the header on every request of the listing
    const seen = mcp.requests.slice(from);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.path === '/private/mcp' && r.authorization === PRIVATE_TOKEN)).toBe(true);

    const listed = await list(user, agentId);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ servers: [res.body.server] });
    expect(JSON.stringify(listed.body)).not.toContain('s3cret');
    const [stored] = await rows(agentId);
    expect(stored.header_names).toEqual(['Authorization']);
    expect(Buffer.from(stored.headers_sealed).toString('latin1')).not.toContain('s3cret');
  });

  it('when the server needs a header the owner did not give, then the server is stored with the error as its status', async () => {
    const { user, agentId } = await userWithAgent();
    const res = await add(user, agentId, { name: 'nokey', url: mcp.privateUrl });
    expect(res.status).toBe(201);
    expect(res.body.server).toMatchObject({ status: 'error', tools: [], listedTools: [], headers: [] });
    expect(res.body.server.error).toMatch(/^MCP_SERVER_UNAVAILABLE: .*401/);
  });

  it('when the server is unreachable, then it is stored with MCP_SERVER_UNAVAILABLE as its status', async () => {
    const { user, agentId } = await userWithAgent();
    const port = await freePort();
    const res = await add(user, agentId, { name: 'nowhere', url: `http://127.0.0.1:${port}/mcp` });
    expect(res.status).toBe(201);
    expect(res.body.server).toMatchObject({ status: 'error', tools: [] });
    expect(res.body.server.error).toMatch(/^MCP_SERVER_UNAVAILABLE: /);
    expect((await list(user, agentId)).body.servers.map((s: { status: string }) => s.status)).toEqual(['error']);
  });

  it('when the server keeps sessions, then the listing opens one, and the service ends it (DELETE) once the tools are read', async () => {
    const { user, agentId } = await userWithAgent();
    const endedBefore = mcp.sessions.ended;
    const res = await add(user, agentId, { name: 'keeper', url: mcp.statefulUrl });
    expect(res.status).toBe(201);
    expect(res.body.server).toMatchObject({ status: 'ok', tools: OPEN_TOOLS });
    expect(await waitFor(async () => mcp.sessions.open(), (n) => n === 0)).toBe(0);
    expect(mcp.sessions.ended).toBe(endedBefore + 1);
  });

  it('when the input is bad, then 400 VALIDATION_ERROR (or MCP_TARGET_REFUSED for the URL) and nothing is stored or contacted', async () => {
    const { user, agentId } = await userWithAgent();
    const from = mcp.requests.length;
    const bad: [object, string][] = [
      [{ url: mcp.url }, 'VALIDATION_ERROR'],
      [{ name: 'Upper', url: mcp.url }, 'VALIDATION_ERROR'],
      [{ name: 'two__parts', url: mcp.url }, 'VALIDATION_ERROR'],
      [{ name: 'trailing_', url: mcp.url }, 'VALIDATION_ERROR'],
      [{ name: 'x'.repeat(33), url: mcp.url }, 'VALIDATION_ERROR'],
      [{ name: 'ok', url: 'not a url' }, 'VALIDATION_ERROR'],
      [{ name: 'ok', url: mcp.url, headers: { 'bad header': 'x' } }, 'VALIDATION_ERROR'],
      [{ name: 'ok', url: mcp.url, headers: { 'x-key': 'a\r\nInjected: 1' } }, 'VALIDATION_ERROR'],
      [{ name: 'ok', url: mcp.url, headers: { Host: 'elsewhere' } }, 'VALIDATION_ERROR'],
      [{ name: 'ok', url: mcp.url, tools: 'echo' }, 'VALIDATION_ERROR'],
      [{ name: 'ok', url: mcp.url, tools: [''] }, 'VALIDATION_ERROR'],
      [{ name: 'ok', url: mcp.url, extra: true }, 'VALIDATION_ERROR'],
      [{ name: 'ok', url: 'ftp://127.0.0.1/mcp' }, 'MCP_TARGET_REFUSED'],
      [{ name: 'ok', url: mcp.url.replace('http://', 'http://user:pw@') }, 'MCP_TARGET_REFUSED'],
    ];
    for (const [payload, code] of bad) {
      const res = await add(user, agentId, payload);
      expect({ payload, status: res.status, code: res.body.code }).toEqual({ payload, status: 400, code });
    }
    expect(await rows(agentId)).toEqual([]);
    expect(mcp.requests.length).toBe(from);
  });

  it('when a name is taken, then 409; when the plan bound is reached, then 429 with current and limit; nothing more stored', async () => {
    const { user, agentId } = await userWithAgent(app, 'label');
    expect((await add(user, agentId, { name: 'one', url: mcp.url })).status).toBe(201);
    const taken = await add(user, agentId, { name: 'one', url: mcp.url });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('MCP_SERVER_NAME_TAKEN');
    expect((await add(user, agentId, { name: 'two', url: mcp.url })).status).toBe(201);
    expect((await add(user, agentId, { name: 'three', url: mcp.url })).status).toBe(201);
    // label: 3 skills per agent, so 3 MCP servers
    const over = await add(user, agentId, { name: 'four', url: mcp.url });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'MCP_SERVER_LIMIT_REACHED', current: 3, limit: 3 });
    expect((await rows(agentId)).map((r) => r.name)).toEqual(['one', 'two', 'three']);
  });

  it('when two adds race for the last place, then one is stored and the other answers 429', async () => {
    const { user, agentId } = await userWithAgent(app, 'label');
    expect((await add(user, agentId, { name: 'a', url: mcp.url })).status).toBe(201);
    expect((await add(user, agentId, { name: 'b', url: mcp.url })).status).toBe(201);
    const [x, y] = await Promise.all([add(user, agentId, { name: 'c1', url: mcp.url }), add(user, agentId, { name: 'c2', url: mcp.url })]);
    expect([x.status, y.status].sort()).toEqual([201, 429]);
    expect((await rows(agentId)).length).toBe(3);
  });
});

describe("another user's agent", () => {
  it('when another user adds, lists, refreshes or removes servers of an agent not theirs, then 404 and the server is never contacted', async () => {
    const { user: a, agentId } = await userWithAgent();
    const created = await add(a, agentId, { name: 'mine', url: mcp.url });
    expect(created.status).toBe(201);
    const { user: b } = await userWithAgent();
    const from = mcp.requests.length;
    const serverId = created.body.server.id;
    for (const res of [
      await add(b, agentId, { name: 'theirs', url: mcp.url }),
      await list(b, agentId),
      await refresh(b, agentId, serverId),
      await remove(b, agentId, serverId),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect(mcp.requests.length).toBe(from);
    expect((await rows(agentId)).map((r) => r.name)).toEqual(['mine']);
  });
});

describe('refresh and removal', () => {
  it('when the server goes down and comes back, then a refresh stores the error (keeping the tools of the last listing) and then ok again', async () => {
    const { user, agentId } = await userWithAgent();
    const created = await add(user, agentId, { name: 'flaky', url: mcp.url, tools: ['echo'] });
    expect(created.body.server).toMatchObject({ status: 'ok', tools: ['echo'] });
    expect(created.body.server.listedTools.map((t: { name: string }) => t.name)).toEqual(OPEN_TOOLS);
    const id = created.body.server.id;
    mcp.setDown(true);
    try {
      const down = await refresh(user, agentId, id);
      expect(down.status).toBe(200);
      expect(down.body.server).toMatchObject({ status: 'error', tools: ['echo'] });
      expect(down.body.server.error).toMatch(/^MCP_SERVER_UNAVAILABLE: .*503/);
    } finally {
      mcp.setDown(false);
    }
    const up = await refresh(user, agentId, id);
    expect(up.body.server).toMatchObject({ status: 'ok', error: null, tools: ['echo'] });
    expect(await refresh(user, agentId, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404 });
  });

  it('when a server is removed, then it is gone; removing it again is 404; removing the agent removes its servers', async () => {
    const { user, agentId } = await userWithAgent();
    const one = (await add(user, agentId, { name: 'one', url: mcp.url })).body.server.id;
    await add(user, agentId, { name: 'two', url: mcp.url });
    expect(await remove(user, agentId, one)).toMatchObject({ status: 200, body: { success: true } });
    expect((await list(user, agentId)).body.servers.map((s: { name: string }) => s.name)).toEqual(['two']);
    expect((await remove(user, agentId, one)).status).toBe(404);
    expect((await remove(user, agentId, 'not-a-uuid')).status).toBe(400);
    // the agent's removal deletes its row (AgentRepository.remove, in POST /api/agents/:id/remove): the foreign key takes its servers
    await owner.query(`delete from agents where id = $1`, [agentId]);
    expect(await rows(agentId)).toEqual([]);
  });
});

// The default rule: private targets refused.
const strict = await startTestApp({ env: { RATE_LIMIT_AGENTS: '100000' } });

describe('the outbound-address rule (MCP_ALLOW_PRIVATE_TARGETS unset)', () => {
  it('when the URL is a literal loopback or private address or localhost, then 400 MCP_TARGET_REFUSED and nothing is stored or contacted', async () => {
    const { user, agentId } = await userWithAgent(strict.app);
    const from = mcp.requests.length;
    for (const url of [mcp.url, mcp.url.replace('127.0.0.1', 'localhost'), 'http://10.1.2.3/mcp', 'http://169.254.169.254/mcp', 'http://[::1]:9/mcp']) {
      const res = await add(user, agentId, { name: 'local', url }, strict.app);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'MCP_TARGET_REFUSED' });
    }
    expect(await rows(agentId, strict.infra.pools.owner)).toEqual([]);
    expect(mcp.requests.length).toBe(from);
  });

  it('when a host name resolves to a private address, then the address is refused at connect: the server is stored with MCP_TARGET_REFUSED and never contacted', async (ctx) => {
    const name = hostname();
    const resolved = await lookup(name, { all: true }).catch(() => []);
    if (resolved.length === 0 || !resolved.every((a) => isForbiddenAddress(a.address))) return ctx.skip(`this machine's host name (${name}) does not resolve only to private addresses, so it cannot stand for one`);
    const { user, agentId } = await userWithAgent(strict.app);
    const from = mcp.requests.length;
    const res = await add(user, agentId, { name: 'sneaky', url: mcp.url.replace('127.0.0.1', name) }, strict.app);
    expect(res.status).toBe(201);
    expect(res.body.server).toMatchObject({ status: 'error', tools: [] });
    expect(res.body.server.error).toMatch(/^MCP_TARGET_REFUSED: .*resolves to a private or reserved address/);
    expect(mcp.requests.length).toBe(from);
  });
});
