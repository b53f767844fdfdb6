import { beforeEach, describe, expect, it } from 'vitest';
import { agentBody } from '../../../src/application/gateway/plugin-bodies.js';
import { reservationsOf, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { callWith, collect, meteredPayer, pluginOf, prepaidPayer } from '../../support/gateway-payers.js';
import { call, signUpAndIn } from '../../support/http-client.js';
import type { TestApp } from '../../support/test-app.js';
import { runningAgent as startRunning, startChatService } from '../../support/agents/chat-service.js';

/**
 * The agent plugin in-process on a real database and a local OpenAI-format provider: the bounded
 * task loop on the AI layer (each call metered for a subscriber, nothing for a prepaid payer), and
 * a user's own agent through its mailbox: provisioned through the API, its job run here with the
 * real process runtime, which answers through POST /api/runtime/chat (as in agent-chat.test.ts).
 */
const PLATFORM_KEY = 'sk-or-gateway-agent';

const main = await startChatService({ apiKey: PLATFORM_KEY });
// the request gives up waiting after 1 s, the provider call after 3 s
const hanging = await startChatService({ apiKey: PLATFORM_KEY, env: { AGENT_REPLY_TIMEOUT_MS: '1000', AI_TIMEOUT_MS: '3000' } });
const { app, container, infra, provider } = main;
const owner = infra.pools.owner;
const plugin = pluginOf(container, 'agent');
const input = (body: object) => agentBody.parse(body);

beforeEach(() => {
  provider.setBehaviour({ kind: 'reply' });
  provider.requests.length = 0;
});

const runningAgent = (t: TestApp, plan = 'solo') => startRunning(t, { plan, name: 'Tasker' });

const storedMessages = async (agentId: string) =>
  (await owner.query(`select role, content, channel from agent_messages where agent_id = $1 order by created_at, id`, [agentId])).rows;

describe('agent plugin: a bounded task on the AI layer', () => {
  it('when the model answers FINAL early, then the loop stops there: the message is the answer, steps the calls made, each call metered', async () => {
    provider.setScript([{ kind: 'reply', chunks: ['Plan: add the numbers.'] }, { kind: 'reply', chunks: ['FINAL: 42'] }]);
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    const result = await plugin.run(callWith(payer, input({ task: 'What is 40 + 2?', maxSteps: 5 })));
    expect(result).toEqual({ message: '42', extra: { steps: 2 } });
    expect(provider.requests).toHaveLength(2);
    const second = provider.requests[1]!.body.messages;
    expect(second[0]).toMatchObject({ role: 'system', content: expect.stringContaining('at most 5 replies') });
    expect(second.slice(1)).toEqual([
      { role: 'user', content: 'What is 40 + 2?' },
      { role: 'assistant', content: 'Plan: add the numbers.' },
      { role: 'user', content: 'Continue with the next step.' },
    ]);
    expect((await unitsUsed(container, user.id)).used).toBe(2);
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled']);
  });

  it('when no step answers, then the last of maxSteps (default 3) calls is told to answer and its text is the message', async () => {
    provider.setScript([{ kind: 'reply', chunks: ['step one'] }, { kind: 'reply', chunks: ['step two'] }, { kind: 'reply', chunks: ['FINAL: done'] }]);
    const result = await plugin.run(callWith(prepaidPayer('label'), input({ task: 'Do it' })));
    expect(result).toEqual({ message: 'done', extra: { steps: 3 } });
    expect(provider.requests).toHaveLength(3);
    expect(provider.requests[2]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Give the final answer to the task now, and nothing else.' });
  });

  it('when maxSteps is 1, then one call answers the task', async () => {
    const result = await plugin.run(callWith(prepaidPayer('label'), input({ task: 'Say hello', maxSteps: 1 })));
    expect(result).toEqual({ message: 'Hello, world!', extra: { steps: 1 } });
    expect(provider.requests).toHaveLength(1);
  });

  it('when streamed, then the final answer arrives as deltas (its FINAL marker removed), then done with the steps', async () => {
    provider.setScript([{ kind: 'reply', chunks: ['thinking'] }, { kind: 'reply', chunks: ['FINAL:', ' The answer', ' is', ' forty-two.'] }]);
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    const events = await collect(plugin.stream!(callWith(payer, input({ task: 'Think', maxSteps: 2 }))));
    const deltas = events.filter((e) => e.type === 'delta').map((e) => (e as { content: string }).content);
    expect(deltas.join('')).toBe('The answer is forty-two.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({ type: 'done', result: { message: 'The answer is forty-two.', extra: { steps: 2 } } });
    expect(provider.requests[1]!.body.stream).toBe(true);
    await unitsUsed(container, user.id); // a stream settles in the background
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'settled']);
  });

  it("when the subscriber's units are spent, then USAGE_EXHAUSTED and no provider call", async () => {
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    await owner.query(`insert into daily_usage (user_id, day, used_units) values ($1, (now() at time zone 'utc')::date, 600)`, [user.id]);
    await expect(plugin.run(callWith(payer, input({ task: 'Do it' })))).rejects.toMatchObject({ code: 'USAGE_EXHAUSTED' });
    expect(provider.requests).toEqual([]);
  });

  it('when the provider fails at a step, then PROVIDER_ERROR, the earlier steps stay settled and the failed one is released', async () => {
    provider.setScript([{ kind: 'reply', chunks: ['step one'] }, { kind: 'error', status: 500 }]);
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    await expect(plugin.run(callWith(payer, input({ task: 'Do it', maxSteps: 3 })))).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    await unitsUsed(container, user.id);
    expect((await reservationsOf(owner, user.id)).map((r) => r.status).sort()).toEqual(['released', 'settled']);
  });
});

describe("agent plugin: the owner's agent through its mailbox", () => {
  it("when the owner names a running agent, then the task goes through the agent's mailbox and its reply is the message", async () => {
    const { user, agent } = await runningAgent(main);
    const payer = await meteredPayer(container, owner, user);
    const result = await plugin.run(callWith(payer, input({ task: 'Hello agent', agentId: agent.id })));
    expect(result).toEqual({ message: 'Hello, world!', extra: { steps: 1 } });
    expect(await storedMessages(agent.id)).toEqual([
      { role: 'user', content: 'Hello agent', channel: 'gateway' },
      // the mailbox keeps the reply on its own channel; the task is marked as the gateway's
      { role: 'assistant', content: 'Hello, world!', channel: expect.any(String) },
    ]);
    // the runtime asked the provider with the agent's own prompt, not the task loop's, and metered the owner
    expect(provider.lastRequest().body.messages.at(-1)).toEqual({ role: 'user', content: 'Hello agent' });
    expect((await unitsUsed(container, user.id)).used).toBeGreaterThan(0);

    // streamed, and paid in advance by the signed-in owner: the same path, the reply as one delta
    const events = await collect(plugin.stream!(callWith(prepaidPayer('label', user.id), input({ task: 'Again', agentId: agent.id }))));
    expect(events).toEqual([
      { type: 'delta', content: 'Hello, world!' },
      { type: 'done', result: { message: 'Hello, world!', extra: { steps: 1 } } },
    ]);
  });

  it("when the payer names another user's agent or an unknown one, then NOT_FOUND (404) and nothing is stored", async () => {
    const { agent } = await runningAgent(main);
    const stranger = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, stranger);
    await expect(plugin.run(callWith(payer, input({ task: 'Hi', agentId: agent.id })))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(plugin.run(callWith(prepaidPayer('label', stranger.id), input({ task: 'Hi', agentId: agent.id })))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(plugin.run(callWith(payer, input({ task: 'Hi', agentId: '00000000-0000-4000-8000-000000000000' })))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await storedMessages(agent.id)).toEqual([]);
    expect(provider.requests).toEqual([]);
  });

  it('when an anonymous prepaid payer names an agent, then AUTH_REQUIRED (401) and nothing is stored', async () => {
    const { agent } = await runningAgent(main);
    await expect(plugin.run(callWith(prepaidPayer('label'), input({ task: 'Hi', agentId: agent.id })))).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    await expect(collect(plugin.stream!(callWith(prepaidPayer('label'), input({ task: 'Hi', agentId: agent.id }))))).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(await storedMessages(agent.id)).toEqual([]);
  });

  it("when the agent's provider fails, then PROVIDER_ERROR and the task stays in the agent's history without a reply", async () => {
    const { user, agent } = await runningAgent(main);
    const payer = await meteredPayer(container, owner, user);
    provider.setBehaviour({ kind: 'error', status: 500 });
    await expect(plugin.run(callWith(payer, input({ task: 'Fail please', agentId: agent.id })))).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    expect((await storedMessages(agent.id)).map((m: { role: string }) => m.role)).toEqual(['user']);
  });

  it('when the agent does not answer within AGENT_REPLY_TIMEOUT_MS, then UPSTREAM_UNAVAILABLE (502); the task stays queued in its history', async () => {
    const { user, agent } = await runningAgent(hanging, 'label');
    const payer = await meteredPayer(hanging.container, hanging.infra.pools.owner, user);
    hanging.provider.setBehaviour({ kind: 'stall' });
    try {
      await expect(pluginOf(hanging.container, 'agent').run(callWith(payer, input({ task: 'Are you there?', agentId: agent.id })))).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      const rows = (await hanging.infra.pools.owner.query(`select role, content from agent_messages where agent_id = $1`, [agent.id])).rows;
      expect(rows).toEqual([{ role: 'user', content: 'Are you there?' }]);
    } finally {
      hanging.provider.setBehaviour({ kind: 'reply' });
    }
  });
});
