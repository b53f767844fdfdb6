import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../support/ai/fake-ai-server.js';
import { call, type SignedIn } from '../../support/http-client.js';
import { gatewayTokenOf, runningAgent as startRunning, startChatService } from '../../support/agents/chat-service.js';
import { PRIVATE_TOKEN, startTestMcpServer } from '../../support/mcp/test-mcp-server.js';

/**
 * An agent calling its MCP servers' tools (decision 0441), end to end: POST /api/chat queues the
 * message, the mailbox hands it to the forked agent-host program with the skills' and the MCP
 * servers' tools, the fake OpenAI-format provider asks for `mcp__<server>__<tool>`, the host calls
 * /api/runtime/tools with its gateway token, and the service calls the real MCP server (the
 * official SDK's, started here) with the headers it holds. The host never sees them.
 */
const CALL_TIMEOUT_MS = 1_500;
const RESULT_MAX_CHARS = 2_000;
const mcp = await startTestMcpServer({ huge: 50_000, flood: 400_000 });
afterAll(() => mcp.close());

const main = await startChatService({
  env: { MCP_ALLOW_PRIVATE_TARGETS: 'true', MCP_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS), MCP_RESULT_MAX_CHARS: String(RESULT_MAX_CHARS), MCP_RESPONSE_MAX_BYTES: '200000', AGENT_MAX_TOOL_STEPS: '3' },
});
const { app, infra, provider } = main;
const owner = infra.pools.owner;

async function agentWithServers() {
  const { user, agent } = await startRunning(main, { name: 'Mcp', config: { systemPrompt: 'You use tools.' } });
  const open = await addServer(user, agent.id, { name: 'tools', url: mcp.url, tools: ['echo', 'fail', 'hang', 'huge', 'flood', 'dotted.name'] });
  const secret = await addServer(user, agent.id, { name: 'vault', url: mcp.privateUrl, headers: { authorization: PRIVATE_TOKEN } });
  expect([open.status, secret.status]).toEqual(['ok', 'ok']);
  return { user, agent, gatewayToken: await gatewayTokenOf(main, user.id) };
}

async function addServer(user: SignedIn, agentId: string, payload: object) {
  const res = await call(app, { method: 'POST', url: `/api/agents/${agentId}/mcp-servers`, headers: user.headers, payload });
  expect(res.status).toBe(201);
  return res.body.server;
}

const send = (user: SignedIn, agentId: string, content: string) => call(app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId, content } });
const chatRequests = (from: number): RecordedRequest[] => provider.requests.slice(from).filter((r) => r.method === 'POST');
const toolResults = (req: RecordedRequest): { id: string; result: any }[] => req.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => ({ id: m.tool_call_id, result: JSON.parse(m.content) }));
const mcpEvents = async (agentId: string) => (await owner.query(`select reason, duration_ms from agent_events where agent_id = $1 and kind = 'mcp_call' order by id`, [agentId])).rows;
const runTool = (token: string, payload: object) => call(app, { method: 'POST', url: '/api/runtime/tools', headers: { authorization: `Bearer ${token}` }, payload });

describe("an agent with MCP servers", () => {
  it('when the model calls an MCP tool, then the service calls the server with the headers it holds, the result goes back to the model, the reply is stored, and the call is an agent event', async () => {
    const { user, agent } = await agentWithServers();
    const from = provider.requests.length;
    const calledFrom = mcp.calls.length;
    provider.setScript([
      { kind: 'tool-calls', text: 'Let me look.', calls: [{ id: 'e1', name: 'mcp__tools__echo', args: { text: 'hello' } }, { id: 'w1', name: 'mcp__vault__whoami', args: {} }] },
      { kind: 'reply', chunks: ['Done: ', 'hello.'] },
    ]);
    const res = await send(user, agent.id, 'Echo hello');
    expect(res.status).toBe(200);
    expect(res.body.reply).toMatchObject({ role: 'assistant', content: 'Done: hello.' });

    const [first, second, ...more] = chatRequests(from);
    expect(more).toEqual([]);
    // offered beside skills under provider-safe names; a name the providers refuse is written with `_`
    expect(first!.body.tools.map((t: any) => t.function.name)).toEqual([
      'mcp__tools__echo', 'mcp__tools__fail', 'mcp__tools__hang', 'mcp__tools__huge', 'mcp__tools__flood', 'mcp__tools__dotted_name', 'mcp__vault__whoami',
    ]);
    const echo = first!.body.tools[0].function;
    expect(echo.description).toBe('Echoes the text. (tool echo of the MCP server tools)');
    expect(echo.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(echo.parameters).not.toHaveProperty('$schema');

    expect(toolResults(second!)).toEqual([
      { id: 'e1', result: { success: true, content: 'echo: hello', structured: { echoed: 'hello' } } },
      { id: 'w1', result: { success: true, content: 'you hold the token' } },
    ]);
    // the server ran each once; the vault call carried the header the service holds
    expect(mcp.calls.slice(calledFrom).map((c) => [c.tool, c.args, c.authorization])).toEqual([
      ['echo', { text: 'hello' }, undefined],
      ['whoami', {}, PRIVATE_TOKEN],
    ]);
    // the agent host never saw the header: neither the delivery nor any provider request holds it
    expect(JSON.stringify(provider.requests.slice(from))).not.toContain('s3cret');
    const events = await mcpEvents(agent.id);
    expect(events.map((e) => e.reason)).toEqual(['tools.echo: ok', 'vault.whoami: ok']);
    for (const e of events) expect(e.duration_ms).toBeGreaterThanOrEqual(0);
    const stored = (await owner.query(`select role, content from agent_messages where agent_id = $1 order by created_at, id`, [agent.id])).rows;
    expect(stored).toEqual([{ role: 'user', content: 'Echo hello' }, { role: 'assistant', content: 'Done: hello.' }]);
  });

  it('when the tools fail, hang or answer huge, then the model gets an error result or a cut result and the chat is answered', async () => {
    const { user, agent } = await agentWithServers();
    const from = provider.requests.length;
    provider.setScript([
      {
        kind: 'tool-calls',
        calls: [
          { id: 'f', name: 'mcp__tools__fail', args: {} },
          { id: 'h', name: 'mcp__tools__hang', args: {} },
          { id: 'g', name: 'mcp__tools__huge', args: {} },
          { id: 'l', name: 'mcp__tools__flood', args: {} },
        ],
      },
      { kind: 'reply', chunks: ['Some tools failed.'] },
    ]);
    const res = await send(user, agent.id, 'Try them all');
    expect(res.status).toBe(200);
    expect(res.body.reply.content).toBe('Some tools failed.');
    const [, second] = chatRequests(from);
    const results = Object.fromEntries(toolResults(second!).map((r) => [r.id, r.result]));
    expect(results.f).toEqual({ error: 'the fail tool failed, as it always does', code: 'MCP_TOOL_ERROR' });
    expect(results.h).toEqual({ error: `The MCP server did not answer within ${CALL_TIMEOUT_MS} ms`, code: 'MCP_TIMEOUT' });
    expect(results.g.success).toBe(true);
    expect(results.g.content).toBe(`${'x'.repeat(RESULT_MAX_CHARS)}… (result cut at ${RESULT_MAX_CHARS} characters)`);
    expect(results.l).toEqual({ error: 'The MCP server\'s answer was larger than 200000 bytes', code: 'MCP_RESULT_TOO_LARGE' });
    expect((await mcpEvents(agent.id)).map((e) => e.reason)).toEqual([
      'tools.fail: error (MCP_TOOL_ERROR)',
      'tools.hang: error (MCP_TIMEOUT)',
      'tools.huge: ok',
      'tools.flood: error (MCP_RESULT_TOO_LARGE)',
    ]);
  });
});

describe('POST /api/runtime/tools with MCP tool names', () => {
  it('when the tool is outside the allowlist, unknown, of no server, or badly argued, then a refusal for the model and the server does not run it', async () => {
    const { user, agent, gatewayToken } = await agentWithServers();
    await addServer(user, agent.id, { name: 'narrow', url: mcp.url, tools: ['echo'] });
    const calledFrom = mcp.calls.length;
    const body = (name: string, args = '{}') => ({ agentId: agent.id, name, arguments: args });
    expect((await runTool(gatewayToken, body('mcp__narrow__fail'))).body).toMatchObject({ code: 'MCP_TOOL_NOT_ALLOWED' });
    expect((await runTool(gatewayToken, body('mcp__narrow__nope'))).body).toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect((await runTool(gatewayToken, body('mcp__nobody__echo'))).body).toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect((await runTool(gatewayToken, body('mcp__narrow__echo', '[1]'))).body).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect((await runTool(gatewayToken, body('mcp__narrow__echo', '{not json'))).body).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(mcp.calls.length).toBe(calledFrom);
    // a server that keeps sessions: the call's session is ended after it
    await addServer(user, agent.id, { name: 'keeper', url: mcp.statefulUrl, tools: ['echo'] });
    const kept = await runTool(gatewayToken, body('mcp__keeper__echo', '{"text":"kept"}'));
    expect(kept).toMatchObject({ status: 200, body: { success: true, content: 'echo: kept' } });
    await expect.poll(() => mcp.sessions.open()).toBe(0);
    const ok = await runTool(gatewayToken, body('mcp__tools__dotted_name'));
    expect(ok).toMatchObject({ status: 200, body: { success: true, content: 'dotted ok' } });
    expect(mcp.calls.slice(calledFrom).map((c) => c.tool)).toEqual(['echo', 'dotted.name']);
  });

  it("when another user's gateway token names the agent's MCP tool, then 404 and the server is not called", async () => {
    const a = await agentWithServers();
    const b = await startRunning(main, { name: 'Other' });
    const calledFrom = mcp.calls.length;
    const res = await runTool(await gatewayTokenOf(main, b.user.id), { agentId: a.agent.id, name: 'mcp__tools__echo', arguments: '{"text":"x"}' });
    expect(res).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(mcp.calls.length).toBe(calledFrom);
  });

  it('when the server is removed, then its tools are no longer offered', async () => {
    const { user, agent } = await agentWithServers();
    const servers = (await call(app, { method: 'GET', url: `/api/agents/${agent.id}/mcp-servers`, headers: user.headers })).body.servers;
    for (const s of servers) expect((await call(app, { method: 'DELETE', url: `/api/agents/${agent.id}/mcp-servers/${s.id}`, headers: user.headers })).status).toBe(200);
    const from = provider.requests.length;
    provider.setBehaviour({ kind: 'reply' });
    expect((await send(user, agent.id, 'Plain')).status).toBe(200);
    expect(chatRequests(from)[0]!.body).not.toHaveProperty('tools');
  });
});
