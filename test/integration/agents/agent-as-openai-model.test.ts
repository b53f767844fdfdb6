import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { apiKeyOf, openAiClient } from '../../support/ai/openai-client.js';
import { gatewayTokenOf, runningAgent, startChatService } from '../../support/agents/chat-service.js';
import { waitFor } from '../../support/polling.js';
import { call } from '../../support/http-client.js';

/**
 * An agent as a model of the OpenAI-compatible API (`agent/<agentId>`), through the official SDK:
 * the last user message goes through the agent's mailbox as POST /api/chat sends it (stored, queued,
 * answered by the forked agent host over /api/runtime/chat with the local provider, shown on the
 * agent's websocket), and the agent's reply is the completion; streamed, its pieces are the chunks.
 */
const t = await startChatService();
const owner = t.infra.pools.owner;

async function agentCustomer() {
  const { user, agent } = await runningAgent(t, { plan: 'solo' });
  return { user, agent, model: `agent/${agent.id}`, client: openAiClient(t.app, await apiKeyOf(t.app, user)) };
}

const history = async (agentId: string) =>
  (await owner.query(`select role, content, channel from agent_messages where agent_id = $1 order by created_at, id`, [agentId])).rows;

describe('agent/<agentId> as a model', () => {
  it("when the owner lists the models, then their agent is one, and another user's is not", async () => {
    const mine = await agentCustomer();
    const theirs = await agentCustomer();
    const ids = (await mine.client.models.list()).data.map((m) => m.id);
    expect(ids).toContain(mine.model);
    expect(ids).not.toContain(theirs.model);
    expect((await mine.client.models.list()).data.find((m) => m.id === mine.model)).toMatchObject({ object: 'model', owned_by: 'agent' });
  });

  it("when the owner asks their agent for a completion, then the agent's reply is the completion and both messages are in its history", async () => {
    const { agent, model, client } = await agentCustomer();
    const answer = await client.chat.completions.create({ model, messages: [{ role: 'system', content: 'ignored: the agent has its own' }, { role: 'user', content: 'Hello agent' }] });
    expect(answer).toMatchObject({ object: 'chat.completion', model, choices: [{ message: { role: 'assistant', content: 'Hello, world!' }, finish_reason: 'stop' }] });
    expect(await history(agent.id)).toEqual([
      { role: 'user', content: 'Hello agent', channel: 'v1' },
      { role: 'assistant', content: 'Hello, world!', channel: 'web' },
    ]);
  });

  it("when the answer is streamed, then the agent's pieces are the chunks, the whole reply in order, and the agent's websocket shows the message", async () => {
    const { user, agent, model, client } = await agentCustomer();
    const url = `${t.config.APP_URL.replace(/^http/, 'ws')}/api/agents/${agent.id}/ws?token=${encodeURIComponent(await gatewayTokenOf(t, user.id))}`;
    const ws = new WebSocket(url);
    const frames: { type: string; message?: { role: string; content: string; channel: string } }[] = [];
    ws.on('message', (data: Buffer) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Stream it' }], stream: true, stream_options: { include_usage: true } });
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello, world!');
      // the pieces are best effort (a piece whose NOTIFY comes after the stored reply is dropped, and the
      // rest of the reply follows whole): on a loaded machine the reply may come as one chunk
      expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThanOrEqual(1);
      expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
      expect(chunks.at(-1)!.usage).toBeDefined();
      // the agent's runtime was asked for its answer streamed (a live view is announced)
      expect(t.provider.lastRequest().body.stream).toBe(true);
      const seen = await waitFor(async () => frames, (f) => f.filter((x) => x.type === 'message').length >= 2);
      expect(seen.filter((f) => f.type === 'message').map((f) => [f.message!.role, f.message!.content, f.message!.channel])).toEqual([
        ['user', 'Stream it', 'v1'],
        ['assistant', 'Hello, world!', 'web'],
      ]);
    } finally {
      ws.close();
    }
  });

  it("when the agent is stopped, then ConflictError agent_not_running and nothing is stored; another user's or an unknown agent is NotFoundError model_not_found", async () => {
    const { agent, model, client } = await agentCustomer();
    const before = t.provider.requests.length;
    await owner.query(`update agents set status = 'stopped' where id = $1`, [agent.id]);
    const stopped = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(OpenAI.ConflictError);
    expect(stopped).toMatchObject({ status: 409, code: 'agent_not_running', param: 'model' });
    expect(await history(agent.id)).toEqual([]);

    const other = await agentCustomer();
    for (const foreign of [other.model, `agent/${randomUUID()}`, 'agent/not-a-uuid']) {
      const err = await client.chat.completions.create({ model: foreign, messages: [{ role: 'user', content: 'Hi' }], stream: true }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect(err).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    }
    expect(await history(other.agent.id)).toEqual([]);
    expect(t.provider.requests.length).toBe(before);
  });

  it('when tools are offered to an agent or no user message is sent, then BadRequestError naming the param', async () => {
    const { model, client } = await agentCustomer();
    const tools = [{ type: 'function' as const, function: { name: 'x' } }];
    await expect(client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], tools })).rejects.toMatchObject({ status: 400, param: 'tools' });
    await expect(client.chat.completions.create({ model, messages: [{ role: 'system', content: 'Hi' }] })).rejects.toMatchObject({ status: 400, param: 'messages' });
  });

  it('attack: when a key whose models list names another model asks the agent, then 403 model_not_allowed on /v1 and KEY_MODEL_NOT_ALLOWED on POST /api/chat, and nothing reaches the mailbox', async () => {
    const { user, agent, model } = await agentCustomer();
    const other = await agentCustomer();
    const created = await call(t.app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'narrow', models: [other.model] } });
    expect(created.status).toBe(201);
    const narrow = openAiClient(t.app, created.body.key as string, { maxRetries: 0 });
    await expect(narrow.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 403, code: 'model_not_allowed' });
    const chat = await call(t.app, { method: 'POST', url: '/api/chat', headers: { authorization: `Bearer ${created.body.key}` }, payload: { agentId: agent.id, content: 'Hi' } });
    expect(chat).toMatchObject({ status: 403, body: { code: 'KEY_MODEL_NOT_ALLOWED' } });
    expect(await history(agent.id)).toEqual([]);
  });
});
