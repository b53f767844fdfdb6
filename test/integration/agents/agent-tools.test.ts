import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SKILL_HANDLERS } from '../../../src/application/ports/skill-handlers.port.js';
import type { RecordedRequest } from '../../support/ai/fake-ai-server.js';
import { call, type SignedIn } from '../../support/http-client.js';
import { recordingSkills } from '../../support/skills/recording-skills.js';
import { gatewayTokenOf, runningAgent as startRunning, startChatService } from '../../support/agents/chat-service.js';
import { waitFor } from '../../support/polling.js';
import { reservationsOf } from '../../support/ai/chat-fixtures.js';

/**
 * An agent using its installed skills as tools, end to end: POST /api/chat queues the message,
 * the mailbox hands it (with the agent's tools) to the forked agent-host program, which asks
 * the service for completions at /api/runtime/chat and runs the model's tool calls at
 * /api/runtime/tools with its gateway token; a fake OpenAI-format provider asks for the tools.
 * The handlers are real SkillHandlers that record what they ran (test/support/skills).
 */

const MAX_TOOL_STEPS = 3;
const skills = recordingSkills();

const main = await startChatService({
  env: { AGENT_MAX_TOOL_STEPS: String(MAX_TOOL_STEPS) },
  override: (c) => c.register(SKILL_HANDLERS, { useValue: skills.handlers }),
});
const { app, infra, container, provider } = main;
const owner = infra.pools.owner;

async function runningAgent() {
  const { user, agent } = await startRunning(main, { name: 'Tooler', config: { systemPrompt: 'You use tools.' } });
  return { user, agent, gatewayToken: await gatewayTokenOf(main, user.id) };
}

/** Installs rows as the owner would leave them (the installs endpoints belong to the skills area). */
async function install(userId: string, agentId: string, skillId: string, enabled = true) {
  await owner.query(`insert into skill_installs (agent_id, user_id, skill_id, version, enabled) values ($1, $2, $3, '1.0.0', $4)`, [agentId, userId, skillId, enabled]);
}

const send = (user: SignedIn, agentId: string, content: string) => call(app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId, content } });

async function stored(agentId: string) {
  const messages = (await owner.query(`select role, content from agent_messages where agent_id = $1 order by created_at, id`, [agentId])).rows;
  const mailbox = (await owner.query(`select status, error_code from agent_mailbox where agent_id = $1 order by seq`, [agentId])).rows;
  return { messages, mailbox };
}

/** The agent's `skill_call` events: what the activity timeline shows of its tool calls. */
const skillCallEvents = async (agentId: string): Promise<string[]> =>
  (await owner.query(`select reason from agent_events where agent_id = $1 and kind = 'skill_call' order by id`, [agentId])).rows.map((r) => r.reason);

/** The provider's chat requests from index `from` on. */
const chatRequests = (from: number): RecordedRequest[] => provider.requests.slice(from).filter((r) => r.method === 'POST');
const callsSince = (from: number) => skills.calls.slice(from);
const toolResults = (req: RecordedRequest): { id: string; result: any }[] => req.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => ({ id: m.tool_call_id, result: JSON.parse(m.content) }));

function openSocket(agentId: string, user: SignedIn) {
  const base = main.config.APP_URL;
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/agents/${agentId}/ws`, { headers: { cookie: user.cookie, origin: base } });
  const frames: any[] = [];
  ws.on('message', (data: Buffer) => frames.push(JSON.parse(String(data))));
  return new Promise<{ ws: WebSocket; frames: any[] }>((resolve, reject) => {
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('error', reject);
  });
}

describe('an agent with installed skills', () => {
  it('when the model calls an installed tool, then the owner-side handler runs, the result goes back to the model, and the final reply is stored and pushed', async () => {
    const { user, agent } = await runningAgent();
    await install(user.id, agent.id, 'calendar');
    await install(user.id, agent.id, 'email', false);
    const from = provider.requests.length;
    const ranFrom = skills.calls.length;
    provider.setScript([
      { kind: 'tool-calls', text: 'Let me book it.', calls: [{ id: 'call_lunch', name: 'calendar__schedule', args: { title: 'Lunch', minutes: 45 } }] },
      { kind: 'reply', chunks: ['Booked ', 'lunch.'] },
    ]);
    const socket = await openSocket(agent.id, user);
    try {
      const res = await send(user, agent.id, 'Book lunch');
      expect(res.status).toBe(200);
      expect(res.body.reply).toMatchObject({ role: 'assistant', content: 'Booked lunch.' });

      const [first, second, ...more] = chatRequests(from);
      expect(more).toEqual([]);
      // exactly the installed AND enabled skill's actions, each with its schema minus `action`
      expect(first!.body.tools.map((t: any) => t.function.name)).toEqual(['calendar__schedule', 'calendar__remember', 'calendar__pay', 'calendar__explode', 'calendar__unconfigured']);
      expect(first!.body.tools[0]).toEqual({
        type: 'function',
        function: {
          name: 'calendar__schedule',
          description: 'Put an event in the calendar.',
          parameters: {
            type: 'object',
            properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, minutes: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 } },
            required: ['title'],
          },
        },
      });
      expect(first!.body.stream).toBeUndefined();
      expect(first!.body.tool_choice).toBeUndefined();

      // the handler ran once, for the owner, as this agent's tool, with the action put back
      expect(callsSince(ranFrom)).toEqual([{ slug: 'calendar', action: 'schedule', userId: user.id, agentId: agent.id, via: 'tool', input: { action: 'schedule', title: 'Lunch', minutes: 45 } }]);

      // the second request carries the assistant's call and the tool's result
      const tail = second!.body.messages.slice(-3);
      expect(tail[0]).toEqual({ role: 'user', content: 'Book lunch' });
      expect(tail[1]).toEqual({
        role: 'assistant',
        content: 'Let me book it.',
        tool_calls: [{ id: 'call_lunch', type: 'function', function: { name: 'calendar__schedule', arguments: '{"title":"Lunch","minutes":45}' } }],
      });
      expect(tail[2].role).toBe('tool');
      expect(toolResults(second!)).toEqual([{ id: 'call_lunch', result: { success: true, eventId: expect.stringMatching(/^evt-/), title: 'Lunch' } }]);
      // recorded for the agent's timeline: skill, action and outcome, not the arguments
      expect(await skillCallEvents(agent.id)).toEqual(['calendar.schedule: ok']);

      // each model call is metered to the owner like any chat call
      await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled']);
      expect(await stored(agent.id)).toEqual({
        messages: [
          { role: 'user', content: 'Book lunch' },
          { role: 'assistant', content: 'Booked lunch.' },
        ],
        mailbox: [{ status: 'answered', error_code: null }],
      });
      const frames = await waitFor(async () => socket.frames, (f) => f.some((x) => x.type === 'message' && x.message.role === 'assistant'));
      expect(frames.filter((f) => f.type === 'delta').map((f) => f.content).join('')).toBe('Booked lunch.');
      expect(frames.filter((f) => f.type === 'message').map((f) => [f.message.role, f.message.content])).toEqual([
        ['user', 'Book lunch'],
        ['assistant', 'Booked lunch.'],
      ]);
    } finally {
      socket.ws.close();
    }
  });

  it('when the model calls tools that are disabled, not installed, beyond the manifest, badly argued, crashing or unknown, then each is refused and reported to the model and no handler runs', async () => {
    const { user, agent } = await runningAgent();
    await install(user.id, agent.id, 'calendar');
    await install(user.id, agent.id, 'email', false);
    const from = provider.requests.length;
    const ranFrom = skills.calls.length;
    provider.setScript([
      {
        kind: 'tool-calls',
        calls: [
          { id: 'c1', name: 'email__send', args: { to: 'a@b.c', body: 'hi' } },
          { id: 'c2', name: 'webhook__post', args: { url: 'http://x' } },
          { id: 'c3', name: 'calendar__pay', args: { amount: 5 } },
          { id: 'c4', name: 'calendar__remember', args: { fact: 'x' } },
          { id: 'c5', name: 'calendar__schedule', args: { title: 5 } },
          { id: 'c6', name: 'calendar__nope', args: {} },
          { id: 'c7', name: 'calendar__unconfigured', args: {} },
        ],
      },
      { kind: 'reply', chunks: ['Sorry, I could not do that.'] },
    ]);
    const res = await send(user, agent.id, 'Do everything');
    expect(res.status).toBe(200);
    expect(res.body.reply.content).toBe('Sorry, I could not do that.');
    const [first, second] = chatRequests(from);
    // the disabled skill was never offered
    expect(first!.body.tools.map((t: any) => t.function.name).filter((n: string) => !n.startsWith('calendar__'))).toEqual([]);
    expect(toolResults(second!).map((r) => [r.id, r.result.code])).toEqual([
      ['c1', 'SKILL_DISABLED'],
      ['c2', 'SKILL_NOT_INSTALLED'],
      ['c3', 'SKILL_CAPABILITY_DENIED'],
      ['c4', 'SKILL_CAPABILITY_DENIED'],
      ['c5', 'INVALID_ARGUMENTS'],
      ['c6', 'UNKNOWN_TOOL'],
      ['c7', 'NOT_CONFIGURED'],
    ]);
    for (const r of toolResults(second!)) {
      expect(Object.keys(r.result).sort()).toEqual(['code', 'error']);
      expect(r.result.error).toEqual(expect.any(String));
    }
    expect(callsSince(ranFrom)).toEqual([]);
    // every call to a known skill's action is on the timeline with its refusal; the unknown tool names nothing to record
    expect(await skillCallEvents(agent.id)).toEqual([
      'email.send: refused (SKILL_DISABLED)',
      'webhook.post: refused (SKILL_NOT_INSTALLED)',
      'calendar.pay: refused (SKILL_CAPABILITY_DENIED)',
      'calendar.remember: refused (SKILL_CAPABILITY_DENIED)',
      'calendar.schedule: refused (INVALID_ARGUMENTS)',
      'calendar.unconfigured: refused (NOT_CONFIGURED)',
    ]);
  });

  it('when the model keeps calling tools, then the last allowed call forbids tools and a model still calling them fails the message with TOOL_STEP_LIMIT', async () => {
    const { user, agent } = await runningAgent();
    await install(user.id, agent.id, 'calendar');
    const from = provider.requests.length;
    const ranFrom = skills.calls.length;
    provider.setBehaviour({ kind: 'tool-calls', calls: [{ name: 'calendar__schedule', args: { title: 'Again' } }] });
    try {
      const res = await send(user, agent.id, 'Loop forever');
      expect(res.status).toBe(502);
      const requests = chatRequests(from);
      expect(requests).toHaveLength(MAX_TOOL_STEPS);
      expect(requests.map((r) => r.body.tool_choice)).toEqual([undefined, undefined, 'none']);
      expect(callsSince(ranFrom)).toHaveLength(MAX_TOOL_STEPS - 1);
      const s = await stored(agent.id);
      expect(s.mailbox).toEqual([{ status: 'failed', error_code: 'TOOL_STEP_LIMIT' }]);
      expect(s.messages).toEqual([{ role: 'user', content: 'Loop forever' }]);
    } finally {
      provider.setBehaviour({ kind: 'reply' });
    }
  });

  it('when the provider fails after a tool ran, then the answer fails with 502 PROVIDER_ERROR, the user message is kept and no reply is invented', async () => {
    const { user, agent } = await runningAgent();
    await install(user.id, agent.id, 'calendar');
    const ranFrom = skills.calls.length;
    provider.setScript([{ kind: 'tool-calls', calls: [{ id: 'c1', name: 'calendar__schedule', args: { title: 'Dinner' } }] }, { kind: 'error', status: 500 }]);
    try {
      const res = await send(user, agent.id, 'Book dinner');
      expect(res).toMatchObject({ status: 502, body: { code: 'PROVIDER_ERROR' } });
      expect(callsSince(ranFrom)).toHaveLength(1);
      expect(await stored(agent.id)).toEqual({ messages: [{ role: 'user', content: 'Book dinner' }], mailbox: [{ status: 'failed', error_code: 'PROVIDER_ERROR' }] });
    } finally {
      provider.setBehaviour({ kind: 'reply' });
    }
  });

  it('when an agent has no skill installed, then no tools are offered and the answer is one call, as before', async () => {
    const { user, agent } = await runningAgent();
    const from = provider.requests.length;
    provider.setBehaviour({ kind: 'reply' });
    const res = await send(user, agent.id, 'Plain');
    expect(res.body.reply.content).toBe('Hello, world!');
    const [only] = chatRequests(from);
    expect(only!.body).not.toHaveProperty('tools');
    // streamed only while a websocket watches the agent (agent-chat.test.ts); none here
    expect(only!.body.stream).not.toBe(true);
  });
});

describe('POST /api/runtime/tools', () => {
  const runTool = (token: string | undefined, payload: object) =>
    call(app, { method: 'POST', url: '/api/runtime/tools', headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, payload });

  it("when another user's gateway token, an unknown token or none is used, then 401/404 and the handler does not run", async () => {
    const a = await runningAgent();
    await install(a.user.id, a.agent.id, 'calendar');
    const b = await runningAgent();
    const ranFrom = skills.calls.length;
    const body = { agentId: a.agent.id, name: 'calendar__schedule', arguments: '{"title":"x"}' };
    expect(await runTool(b.gatewayToken, body)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await runTool('not-a-token', body)).toMatchObject({ status: 401 });
    expect(await runTool(undefined, body)).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    // a user's own session is not a gateway token
    expect((await call(app, { method: 'POST', url: '/api/runtime/tools', headers: a.user.headers, payload: body })).status).toBe(401);
    expect(callsSince(ranFrom)).toEqual([]);
  });

  it('when the body is malformed, then 400 and nothing runs; when the call is good, then the handler result comes back with success', async () => {
    const { user, agent, gatewayToken } = await runningAgent();
    await install(user.id, agent.id, 'calendar');
    const ranFrom = skills.calls.length;
    expect((await runTool(gatewayToken, { agentId: agent.id, name: 'calendar__schedule' })).status).toBe(400);
    expect((await runTool(gatewayToken, { agentId: agent.id, name: 'calendar__schedule', arguments: 42 })).status).toBe(400);
    expect(callsSince(ranFrom)).toEqual([]);
    const ok = await runTool(gatewayToken, { agentId: agent.id, name: 'calendar__schedule', arguments: '{"title":"Tea"}' });
    expect(ok).toMatchObject({ status: 200, body: { success: true, title: 'Tea' } });
    expect(callsSince(ranFrom)).toHaveLength(1);
  });

  it('when a handler crashes, then the result is TOOL_FAILED without its internals; arguments that are not JSON are INVALID_ARGUMENTS', async () => {
    const { user, agent, gatewayToken } = await runningAgent();
    await install(user.id, agent.id, 'calendar');
    const crash = await runTool(gatewayToken, { agentId: agent.id, name: 'calendar__explode', arguments: '{}' });
    expect(crash).toMatchObject({ status: 200, body: { code: 'TOOL_FAILED' } });
    expect(JSON.stringify(crash.body)).not.toContain('secret internals');
    expect(main.logs.some((l) => l.includes('an agent tool crashed') && l.includes('calendar__explode'))).toBe(true);
    expect(await runTool(gatewayToken, { agentId: agent.id, name: 'calendar__schedule', arguments: '{not json' })).toMatchObject({ status: 200, body: { code: 'INVALID_ARGUMENTS' } });
  });
});
