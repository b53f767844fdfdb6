import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentMailboxDispatcher } from '../../../src/adapters/inbound/jobs/agent-mailbox-dispatcher.js';
import { provisionAgentHandler } from '../../../src/adapters/inbound/jobs/provision-agent.handler.js';
import { CompleteProvisioning } from '../../../src/application/agents/complete-provisioning.use-case.js';
import { patientBreakers, subscribe } from '../../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { call, signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * Issue 9's "done when", end to end with nothing of ours replaced: the real skill registry, the
 * install endpoint, the forked agent-host program, and a local provider speaking the OpenAI wire
 * format that answers a plain-words request with a tool call to event-scheduler. The event must
 * be stored for the agent's owner, and the model must see the stored event as the tool's result.
 */

const PLATFORM_KEY = 'sk-or-platform-key';

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

const provider = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
afterAll(() => provider.close());
const port = await freePort();
const { app, infra, container } = await startTestApp({
  env: {
    APP_URL: `http://127.0.0.1:${port}`,
    RUNTIME_RUN_AS_USER: '',
    OPENROUTER_API_KEY: PLATFORM_KEY,
    OPENROUTER_BASE_URL: provider.baseUrl,
    AGENT_MAILBOX_POLL_MS: '500',
    AGENT_REPLY_TIMEOUT_MS: '20000',
  },
  override: (c) => patientBreakers(c),
});
await app.listen({ host: '127.0.0.1', port });
await container.resolve(AgentMailboxDispatcher).start();
const owner = infra.pools.owner;

describe('an agent with event-scheduler installed', () => {
  it('when asked in plain words to schedule an event, then it calls the skill as a tool and the event is stored for its owner', async () => {
    const user = await signUpAndIn(app);
    await subscribe(owner, user.id, 'solo');
    const provisioned = await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Booker' } });
    expect(provisioned.status).toBe(201);
    const agentId: string = provisioned.body.agent.id;
    const job = (await owner.query(`select data from pgboss.job where name = 'provision' and data->>'agentId' = $1`, [agentId])).rows[0]!.data;
    const { kind: _kind, ...data } = job;
    await provisionAgentHandler(container.resolve(CompleteProvisioning))(data);

    const installed = await call(app, { method: 'POST', url: '/api/skills', headers: user.headers, payload: { skillId: 'event-scheduler', agentId } });
    expect(installed.status).toBe(200);

    const from = provider.requests.length;
    provider.setScript([
      {
        kind: 'tool-calls',
        text: '',
        calls: [{ id: 'call_gig', name: 'event-scheduler__schedule', args: { title: 'Warehouse gig', date: '2026-12-31', time: '22:30', channels: ['web'] } }],
      },
      { kind: 'reply', chunks: ['Your gig is scheduled for 31 December at 22:30.'] },
    ]);
    const res = await call(app, {
      method: 'POST',
      url: '/api/chat',
      headers: user.headers,
      payload: { agentId, content: 'Please schedule my warehouse gig on New Year’s Eve at half past ten in the evening.' },
    });
    expect(res.status).toBe(200);
    expect(res.body.reply.content).toBe('Your gig is scheduled for 31 December at 22:30.');

    // the model was offered the installed skill's actions as tools
    const [first, second] = provider.requests.slice(from).filter((r) => r.method === 'POST');
    expect(first!.body.tools.map((t: any) => t.function.name)).toEqual(['event-scheduler__schedule', 'event-scheduler__list']);
    expect(first!.body.tools[0].function.parameters.required).toEqual(expect.arrayContaining(['title', 'date', 'time', 'channels']));

    // the event is stored for the owner, as the skill itself lists it
    const listed = await call(app, { method: 'POST', url: '/api/skills/event-scheduler', headers: user.headers, payload: { action: 'list' } });
    expect(listed.status).toBe(200);
    expect(listed.body.events).toEqual([expect.objectContaining({ title: 'Warehouse gig', date: '2026-12-31', time: '22:30', channels: ['web'] })]);

    // and the model saw that stored event as the tool's result
    const result = JSON.parse(second!.body.messages.find((m: any) => m.role === 'tool').content);
    expect(result).toMatchObject({ success: true, event: { id: listed.body.events[0].id, title: 'Warehouse gig' } });

    // another user sees none of it
    const stranger = await signUpAndIn(app);
    const theirs = await call(app, { method: 'POST', url: '/api/skills/event-scheduler', headers: stranger.headers, payload: { action: 'list' } });
    expect(theirs.body.events).toEqual([]);
  });
});
