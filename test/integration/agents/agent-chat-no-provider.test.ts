import type { Pool } from 'pg';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { call } from '../../support/http-client.js';
import { runningAgent, startChatService } from '../../support/agents/chat-service.js';

/**
 * A fresh clone talks to its agent: no AI provider is configured. The agent runs, but every answer
 * fails for a reason retrying cannot fix, so the caller is told that (503 PROVIDER_NOT_CONFIGURED),
 * not "a service we depend on did not answer", and the message that got no answer is marked failed
 * in the conversation as it is read back later (not a silent orphan after a reload).
 */
const service = await startChatService({ via: 'none' });
// the README's first way out: only an OpenAI-compatible server configured
const openAiOnly = await startChatService({ via: 'openai' });

const mailbox = async (owner: Pool, agentId: string) =>
  (await owner.query(`select status, error_code from agent_mailbox where agent_id = $1 order by seq`, [agentId])).rows;

describe('talking to an agent with no AI provider configured', () => {
  it('POST /api/chat answers 503 PROVIDER_NOT_CONFIGURED; the message stays stored, marked failed when the conversation is read', async () => {
    const { user, agent } = await runningAgent(service, { plan: 'label' });
    const res = await call(service.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'hello?' } });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', error: expect.stringMatching(/^No AI model provider is configured/) });
    expect(await mailbox(service.infra.pools.owner, agent.id)).toEqual([{ status: 'failed', error_code: 'PROVIDER_UNAVAILABLE' }]);
    // no provider was ever called
    expect(service.provider.requests).toHaveLength(0);

    for (const url of [`/api/agents/${agent.id}/messages?limit=10`, `/api/chat?agentId=${agent.id}`]) {
      const history = await call(service.app, { method: 'GET', url, headers: user.headers });
      expect(history.status).toBe(200);
      expect(history.body.messages).toEqual([
        { id: res.body.message?.id ?? expect.any(String), agentId: agent.id, role: 'user', content: 'hello?', channel: 'web', createdAt: expect.any(String), failure: { code: 'PROVIDER_NOT_CONFIGURED' } },
      ]);
    }
  });

  it('the agent API chat action answers the same, and a websocket message gets an error frame PROVIDER_NOT_CONFIGURED', async () => {
    const { user, agent } = await runningAgent(service, { plan: 'label' });
    const viaAgentApi = await call(service.app, { method: 'POST', url: '/api/agent', headers: user.headers, payload: { action: 'chat', agentId: agent.id, content: 'anyone?' } });
    expect(viaAgentApi.status).toBe(503);
    expect(viaAgentApi.body).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });

    const ws = new WebSocket(`${service.config.APP_URL.replace('http', 'ws')}/api/agents/${agent.id}/ws`, { headers: { cookie: user.cookie, origin: service.config.APP_URL } });
    const frames: { type: string; code?: string }[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      ws.send(JSON.stringify({ type: 'message', content: 'over the socket' }));
      await expect.poll(() => frames.find((f) => f.type === 'error'), { timeout: 20_000 }).toEqual({ type: 'error', code: 'PROVIDER_NOT_CONFIGURED', error: expect.any(String), reason: 'PROVIDER_UNAVAILABLE' });
    } finally {
      ws.close();
    }
  });

  it('once an OpenAI-compatible server is configured (OPENAI_BASE_URL, OPENAI_API_KEY, nothing else), the agent answers through it', async () => {
    const { user, agent } = await runningAgent(openAiOnly, { plan: 'label' });
    const res = await call(openAiOnly.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'hello?' } });
    expect(res.status).toBe(200);
    expect(res.body.reply).toMatchObject({ role: 'assistant', content: expect.stringMatching(/\S/) });
    // the OpenAI wire format, the vendor prefix dropped from the model name (a local server names its model so)
    expect(openAiOnly.provider.requests.at(-1)?.body).toMatchObject({ model: 'gpt-4o-mini' });
  });
});
