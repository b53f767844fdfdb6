import { describe, expect, it } from 'vitest';
import { PLATFORM_KEY, startChatService } from '../../support/agents/chat-service.js';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { reservationsOf } from '../../support/ai/chat-fixtures.js';
import { call } from '../../support/http-client.js';
import { waitFor } from '../../support/polling.js';
import { spawnWorker } from '../../support/agents/worker-process.js';

/**
 * Separate api and worker processes (decision 0372): a worker with an AI provider configured of its
 * own answers its agent hosts' chat calls in its own process (RUNTIME_SERVICE_CALLS=auto), so
 * neither its APP_URL nor its AGENT_SERVICE_URL needs to lead anywhere; the api process (this one)
 * stores the message and waits for the answer. A worker without a provider leaves the calls to the
 * api over HTTP (worker-killed-mid-answer.test.ts).
 */
const t = await startChatService({ run: 'none', env: { SERVICE_ROLE: 'api', AGENT_REPLY_TIMEOUT_MS: '10000', RATE_LIMIT_INSTANCE: '100000' } });
const owner = t.infra.pools.owner;
const worker = await spawnWorker(t.databaseUrl, {
  APP_URL: 'http://127.0.0.1:9', // nothing listens there
  AGENT_SERVICE_URL: 'http://127.0.0.1:9',
  OPENROUTER_API_KEY: PLATFORM_KEY,
  OPENROUTER_BASE_URL: t.provider.baseUrl,
});

describe('a worker that answers its agent hosts\' calls itself', () => {
  it('when a message is sent through the api process, then the worker\'s agent answers with the provider\'s text, metered once, and a provider failure releases its reservation', async () => {
    const { user, agent } = await provisionedUser(t.app, owner, 'label');
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning', 60_000)).toBe('running');
    const before = t.provider.requests.length;
    const chat = await call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'hello' } });
    expect(chat).toMatchObject({ status: 200, body: { reply: { role: 'assistant', content: 'Hello, world!' } } });
    expect(t.provider.requests.length).toBe(before + 1);
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled']);

    t.provider.setBehaviour({ kind: 'error', status: 500 });
    try {
      const failed = await call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'will fail' } });
      expect(failed).toMatchObject({ status: 502, body: { code: 'PROVIDER_ERROR' } });
    } finally {
      t.provider.setBehaviour({ kind: 'reply' });
    }
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled', 'released']);
    expect(worker.output).not.toContain('SERVICE_UNREACHABLE');
  }, 120_000);
});
