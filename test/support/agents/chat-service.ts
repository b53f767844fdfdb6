import type { DependencyContainer } from 'tsyringe';
import { afterAll, expect } from 'vitest';
import { AgentMailboxDispatcher } from '../../../src/adapters/inbound/jobs/agent-mailbox-dispatcher.js';
import { provisionAgentHandler } from '../../../src/adapters/inbound/jobs/provision-agent.handler.js';
import { CompleteProvisioning, gatewayTokenContext } from '../../../src/application/agents/complete-provisioning.use-case.js';
import { SECRET_BOX } from '../../../src/application/ports/secret-box.port.js';
import { startWorker } from '../../../src/bootstrap/worker.js';
import { patientBreakers, subscribe } from '../ai/chat-fixtures.js';
import type { FakeAiServer } from '../ai/fake-ai-server.js';
import { startFakeOpenAiServer } from '../ai/fake-openai-server.js';
import { call, signUpAndIn, type SignedIn } from '../http-client.js';
import { freePort } from '../service-process.js';
import { startTestApp, type TestApp } from '../test-app.js';

export const PLATFORM_KEY = 'sk-or-platform-key';

export interface ChatServiceOptions {
  /** Added to (or replacing) the defaults below. */
  env?: Record<string, string>;
  /** Registrations after the test app's own (patientBreakers always applies). */
  override?: (c: DependencyContainer) => void;
  /**
   * `mailbox` (default): only the mailbox dispatcher runs, and tests run provision jobs themselves (runningAgent);
   * `worker`: the whole worker; `none`: nothing of a worker (an api process, with SERVICE_ROLE=api: worker processes answer).
   */
  run?: 'mailbox' | 'worker' | 'none';
  /** The platform's OpenRouter key the fake provider expects. */
  apiKey?: string;
  /**
   * Which platform provider the fake stands in for: `openrouter` (default), `openai` (an
   * OpenAI-compatible server at OPENAI_BASE_URL), or `none` (a fresh clone's state: it runs, unwired).
   */
  via?: 'openrouter' | 'openai' | 'none';
}

/**
 * The service in this process, listening on a free port because the agent runtime calls it over
 * HTTP (/api/runtime/chat), with its OpenRouter route pointed at a local fake OpenAI-format
 * provider, and the real process runtime.
 */
export async function startChatService(o: ChatServiceOptions = {}): Promise<TestApp & { provider: FakeAiServer }> {
  const apiKey = o.apiKey ?? PLATFORM_KEY;
  const provider = await startFakeOpenAiServer({ apiKey });
  afterAll(() => provider.close());
  const port = await freePort();
  const t = await startTestApp({
    env: {
      APP_URL: `http://127.0.0.1:${port}`,
      RUNTIME_RUN_AS_USER: '',
      ...({
        openrouter: { OPENROUTER_API_KEY: apiKey, OPENROUTER_BASE_URL: provider.baseUrl },
        openai: { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: provider.baseUrl },
        none: {},
      } as const)[o.via ?? 'openrouter'],
      RATE_LIMIT_AGENTS: '100000',
      RATE_LIMIT_CHAT: '100000',
      AGENT_MAILBOX_POLL_MS: '500',
      AGENT_REPLY_TIMEOUT_MS: '20000',
      ...o.env,
    },
    override: (c) => {
      patientBreakers(c);
      o.override?.(c);
    },
  });
  await t.app.listen({ host: '127.0.0.1', port });
  if (o.run === 'worker') await startWorker(t.container, t.infra.queue, t.infra.afterQueueStops);
  else if (o.run !== 'none') await t.container.resolve(AgentMailboxDispatcher).start();
  return { ...t, provider };
}

/** A subscribed user with a running agent: provisioned through the API, its provision job run here. */
export async function runningAgent(t: TestApp, o: { plan?: string; name?: string; config?: object } = {}): Promise<{ user: SignedIn; agent: { id: string } & Record<string, any> }> {
  const user = await signUpAndIn(t.app);
  await subscribe(t.infra.pools.owner, user.id, o.plan ?? 'solo');
  const res = await call(t.app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: o.name ?? 'Talker', ...(o.config ? { config: o.config } : {}) } });
  expect(res.status).toBe(201);
  const agent = res.body.agent;
  const job = (await t.infra.pools.owner.query(`select data from pgboss.job where name = 'provision' and data->>'agentId' = $1`, [agent.id])).rows[0]!.data;
  const { kind: _kind, ...data } = job;
  await provisionAgentHandler(t.container.resolve(CompleteProvisioning))(data);
  expect((await t.infra.pools.owner.query(`select status from agents where id = $1`, [agent.id])).rows[0].status).toBe('running');
  return { user, agent };
}

/** The user's instance gateway token, opened from its sealed column. */
export async function gatewayTokenOf(t: TestApp, userId: string): Promise<string> {
  const i = (await t.infra.pools.owner.query(`select gateway_token_key_id, gateway_token_sealed from instances where user_id = $1`, [userId])).rows[0];
  return t.container.resolve(SECRET_BOX).open({ keyId: i.gateway_token_key_id, ciphertext: i.gateway_token_sealed }, gatewayTokenContext(userId));
}
