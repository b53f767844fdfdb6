import { describe, expect, it } from 'vitest';
import { call, type SignedIn } from '../../support/http-client.js';
import { runningAgent as startRunning, startChatService } from '../../support/agents/chat-service.js';

/**
 * POST /api/agent `chat` end to end, in-process (the same path as test/integration/agents/agent-chat.test.ts):
 * the provision job run here with the real ProcessAgentRuntime, the mailbox dispatcher handing the
 * message to the forked agent-host program, which asks POST /api/runtime/chat with its gateway
 * token; the service calls a local fake OpenAI-format provider. The message and its reply carry the session.
 */
const t = await startChatService();
const { app, infra, provider } = t;
const owner = infra.pools.owner;

/** A subscribed user with a running agent (provisioned through the API, the job run here). */
async function runningAgent(): Promise<{ user: SignedIn; agentId: string }> {
  const { user, agent } = await startRunning(t, { name: 'Sessions', config: { systemPrompt: 'You are a test agent.' } });
  return { user, agentId: agent.id };
}

const post = (user: SignedIn, payload: object) => call(app, { method: 'POST', url: '/api/agent', headers: user.headers, payload });

describe('POST /api/agent chat', () => {
  it('when a subscriber chats in a session, then the runtime answers, both messages carry the session, and memory shows them', async () => {
    const { user, agentId } = await runningAgent();
    const session = (await post(user, { action: 'create_session', agentId })).body.session;
    const res = await post(user, { action: 'chat', agentId, content: 'Hello agent', sessionId: session.id });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ agentId, role: 'user', content: 'Hello agent', sessionId: session.id });
    expect(res.body.reply).toMatchObject({ agentId, role: 'assistant', content: 'Hello, world!', sessionId: session.id });
    const rows = (await owner.query(`select role, session_id from agent_messages where agent_id = $1 order by created_at, id`, [agentId])).rows;
    expect(rows).toEqual([{ role: 'user', session_id: session.id }, { role: 'assistant', session_id: session.id }]);

    const memory = await call(app, { method: 'GET', url: `/api/agent?action=memory&agentId=${agentId}`, headers: { cookie: user.cookie } });
    expect(memory.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([['user', 'Hello agent'], ['assistant', 'Hello, world!']]);

    // the runtime's conversation is the session's: a second session starts afresh
    const second = (await post(user, { action: 'create_session', agentId })).body.session;
    expect((await post(user, { action: 'chat', agentId, content: 'Second thread', sessionId: second.id })).status).toBe(200);
    expect(provider.lastRequest().body.messages).toEqual([
      { role: 'system', content: 'You are a test agent.' },
      { role: 'user', content: 'Second thread' },
    ]);
    expect((await post(user, { action: 'chat', agentId, content: 'Back to the first', sessionId: session.id })).status).toBe(200);
    expect(provider.lastRequest().body.messages).toEqual([
      { role: 'system', content: 'You are a test agent.' },
      { role: 'user', content: 'Hello agent' },
      { role: 'assistant', content: 'Hello, world!' },
      { role: 'user', content: 'Back to the first' },
    ]);

    // without a session the message and reply carry none, and the conversation is the session-less one
    const plain = await post(user, { action: 'chat', agentId, content: 'no session' });
    expect(plain.status).toBe(200);
    expect([plain.body.message.sessionId, plain.body.reply.sessionId]).toEqual([null, null]);
    expect(provider.lastRequest().body.messages).toEqual([
      { role: 'system', content: 'You are a test agent.' },
      { role: 'user', content: 'no session' },
    ]);
  });

  it('when the provider fails, then 502 PROVIDER_ERROR, the message stays stored in its session, and no reply is invented', async () => {
    const { user, agentId } = await runningAgent();
    const session = (await post(user, { action: 'create_session', agentId })).body.session;
    provider.setBehaviour({ kind: 'error', status: 500 });
    try {
      const res = await post(user, { action: 'chat', agentId, content: 'will fail', sessionId: session.id });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ error: expect.any(String), code: 'PROVIDER_ERROR' });
    } finally {
      provider.setBehaviour({ kind: 'reply' });
    }
    const rows = (await owner.query(`select role, session_id from agent_messages where agent_id = $1`, [agentId])).rows;
    expect(rows).toEqual([{ role: 'user', session_id: session.id }]);
  });
});
