import { describe, expect, it } from 'vitest';
import { SEND_DUE_HEARTBEATS, SEND_DUE_HEARTBEATS_CRON, sendDueHeartbeatsHandler } from '../../../src/adapters/inbound/jobs/send-due-heartbeats.handler.js';
import { renderMemory } from '../../../src/agent-host/agent-host-prompt.js';
import { MAINTENANCE_QUEUE } from '../../../src/adapters/outbound/queue/pg-boss-queue.js';
import { HEARTBEAT_CHANNEL, HEARTBEAT_MESSAGE, SendDueHeartbeats } from '../../../src/application/heartbeat/send-due-heartbeats.use-case.js';
import { agentStatus, provisionedUser } from '../../support/agents/instances.js';
import { waitFor } from '../../support/polling.js';
import { call, signUpAndIn, type SignedIn } from '../../support/http-client.js';
import { startChatService } from '../../support/agents/chat-service.js';

/**
 * Memory and heartbeats end to end on the whole service in one process: this process's worker
 * provisions the agents, runs their agent-host program and answers their mailboxes; the runtime
 * asks the service for the completion over HTTP, which calls a local fake OpenAI-format provider.
 */
const t = await startChatService({ run: 'worker' });
const { app, provider } = t;
const owner = t.infra.pools.owner;
const queue = t.infra.queue;

/** A subscriber whose agent this process's worker provisioned and runs. */
async function runningAgent() {
  const u = await provisionedUser(app, owner);
  expect(await waitFor(() => agentStatus(owner, u.agent.id), (s) => s !== 'provisioning')).toBe('running');
  return u;
}
/** An agent row with the given status and no runtime behind it. */
const agentRow = async (userId: string, status: string) =>
  (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Row', 'm', $2) returning id`, [userId, status])).rows[0].id as string;
const enable = (user: SignedIn, frequency = '5m') => call(app, { method: 'POST', url: '/api/heartbeat', headers: user.headers, payload: { frequency, enabled: true } });
const makeDue = (userId: string) => owner.query(`update heartbeats set next_heartbeat = now() - interval '1 second' where user_id = $1`, [userId]);
const messages = async (agentId: string) => (await owner.query(`select role, content, channel from agent_messages where agent_id = $1 order by created_at, id`, [agentId])).rows;
const heartbeatRow = async (userId: string) => (await owner.query(`select last_heartbeat, next_heartbeat from heartbeats where user_id = $1`, [userId])).rows[0];
const skips = async (agentId: string) => (await owner.query(`select kind, reason from agent_events where agent_id = $1 and kind = 'heartbeat_skipped'`, [agentId])).rows;
const run = () => t.container.resolve(SendDueHeartbeats).execute();

describe('the worker schedule', () => {
  it('when a worker starts, then the heartbeat run is scheduled every minute on the maintenance queue', async () => {
    const schedules = await queue.boss.getSchedules(MAINTENANCE_QUEUE);
    expect(schedules).toEqual(expect.arrayContaining([expect.objectContaining({ key: SEND_DUE_HEARTBEATS, cron: SEND_DUE_HEARTBEATS_CRON, data: { kind: SEND_DUE_HEARTBEATS } })]));
    // from here on the tests run it themselves, at the moments they choose
    await queue.boss.unschedule(MAINTENANCE_QUEUE, SEND_DUE_HEARTBEATS);
  });
});

describe('agent memory in the prompt', () => {
  it('when an agent has stored memory, then the runtime puts it in the prompt the provider receives', async () => {
    const { user, agent } = await runningAgent();
    const memory = { favourite: { genre: 'techno', bpm: 128 }, name: 'Ada' };
    expect((await call(app, { method: 'POST', url: '/api/memory', headers: user.headers, payload: { agentId: agent.id, memory } })).status).toBe(200);
    const res = await call(app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content: 'What do I like?' } });
    expect(res.status).toBe(200);
    const sent = provider.lastRequest().body.messages;
    // the value as stored: jsonb keeps an object's keys in its own order (shorter keys first)
    expect(sent[1]).toEqual({ role: 'system', content: renderMemory({ favourite: { bpm: 128, genre: 'techno' }, name: 'Ada' }) });
    expect(sent[1].content).toContain('favourite: {"bpm":128,"genre":"techno"}');
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'What do I like?' });
  }, 60_000);
});

describe('heartbeats', () => {
  it('when a heartbeat is due, then each running agent gets the heartbeat message through its mailbox and answers it; the next one is a period later', async () => {
    const { user, agent } = await runningAgent();
    expect((await enable(user)).status).toBe(200);
    await makeDue(user.id);
    const result = await run();
    expect(result).toMatchObject({ users: 1, sent: 1, skipped: 0 });

    const history = await waitFor(() => messages(agent.id), (m) => m.length >= 2, 30_000);
    expect(history).toEqual([
      { role: 'user', content: HEARTBEAT_MESSAGE, channel: HEARTBEAT_CHANNEL },
      { role: 'assistant', content: 'Hello, world!', channel: 'web' },
    ]);
    expect(provider.lastRequest().body.messages.at(-1)).toEqual({ role: 'user', content: HEARTBEAT_MESSAGE });
    const row = await heartbeatRow(user.id);
    expect(row.last_heartbeat).toBeInstanceOf(Date);
    expect(row.next_heartbeat.getTime() - row.last_heartbeat.getTime()).toBe(5 * 60_000);
    // GET shows it
    const shown = (await call(app, { method: 'GET', url: '/api/heartbeat', headers: { cookie: user.cookie } })).body.heartbeat;
    expect(shown).toEqual({ frequency: '5m', enabled: true, lastHeartbeat: row.last_heartbeat.toISOString(), nextHeartbeat: row.next_heartbeat.toISOString() });

    // not due any more: the next run sends nothing
    expect(await run()).toEqual({ users: 0, sent: 0, skipped: 0 });
    expect(await messages(agent.id)).toHaveLength(2);
  }, 60_000);

  it('when the scheduled job runs for a user with a stopped agent, then the running agent is sent the heartbeat, the stopped one is skipped and recorded, never retried', async () => {
    const { user, agent } = await runningAgent();
    const stopped = await agentRow(user.id, 'stopped');
    await enable(user, '1h');
    await makeDue(user.id);
    // what the cron pass sends each minute, sent now rather than waited for
    await queue.boss.send(MAINTENANCE_QUEUE, { kind: SEND_DUE_HEARTBEATS });
    const row = await waitFor(() => heartbeatRow(user.id), (r) => r.last_heartbeat !== null, 15_000);
    expect(row.next_heartbeat.getTime() - row.last_heartbeat.getTime()).toBe(3_600_000);
    expect(await skips(stopped)).toEqual([{ kind: 'heartbeat_skipped', reason: 'the agent is stopped' }]);
    expect(await messages(stopped)).toEqual([]);
    expect((await waitFor(() => messages(agent.id), (m) => m.length >= 2, 30_000)).map((m) => m.role)).toEqual(['user', 'assistant']);
    // the job handler itself, called directly: nothing due, nothing sent or recorded again
    await sendDueHeartbeatsHandler(t.container.resolve(SendDueHeartbeats))({});
    expect(await skips(stopped)).toHaveLength(1);
    expect(await messages(agent.id)).toHaveLength(2);
  }, 60_000);

  it('when the provider fails on a heartbeat, then the heartbeat message stays in the history, no reply is invented, and the next heartbeat is still scheduled', async () => {
    const { user, agent } = await runningAgent();
    await enable(user, '2h');
    await makeDue(user.id);
    provider.setBehaviour({ kind: 'error', status: 500 });
    try {
      expect(await run()).toMatchObject({ users: 1, sent: 1 });
      const mailbox = await waitFor(
        async () => (await owner.query(`select status, error_code from agent_mailbox where agent_id = $1`, [agent.id])).rows,
        (rows) => rows[0]?.status === 'failed',
        30_000,
      );
      expect(mailbox).toEqual([{ status: 'failed', error_code: 'PROVIDER_ERROR' }]);
    } finally {
      provider.setBehaviour({ kind: 'reply' });
    }
    expect(await messages(agent.id)).toEqual([{ role: 'user', content: HEARTBEAT_MESSAGE, channel: HEARTBEAT_CHANNEL }]);
    const row = await heartbeatRow(user.id);
    expect(row.next_heartbeat.getTime() - row.last_heartbeat.getTime()).toBe(2 * 3_600_000);
  }, 60_000);

  it('when a heartbeat is disabled or not yet due, then nothing is sent or recorded', async () => {
    const disabled = await signUpAndIn(app);
    const disabledAgent = await agentRow(disabled.id, 'running');
    await enable(disabled);
    await call(app, { method: 'POST', url: '/api/heartbeat', headers: disabled.headers, payload: { enabled: false } });
    const notDue = await signUpAndIn(app);
    const notDueAgent = await agentRow(notDue.id, 'running');
    await enable(notDue);
    const defaults = await signUpAndIn(app);
    const defaultsAgent = await agentRow(defaults.id, 'stopped');

    expect(await run()).toEqual({ users: 0, sent: 0, skipped: 0 });
    for (const id of [disabledAgent, notDueAgent, defaultsAgent]) {
      expect(await messages(id)).toEqual([]);
      expect(await skips(id)).toEqual([]);
    }
    expect(await heartbeatRow(notDue.id)).toMatchObject({ last_heartbeat: null });
  });

  it('when several runs go at once, then each due heartbeat is sent exactly once', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => signUpAndIn(app)));
    const agents: string[] = [];
    for (const u of users) {
      agents.push(await agentRow(u.id, 'running'), await agentRow(u.id, 'running'));
      await enable(u);
      await makeDue(u.id);
    }
    const results = await Promise.all([run(), run(), run(), run()]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(8);
    expect(results.reduce((n, r) => n + r.users, 0)).toBe(4);
    for (const id of agents) expect(await messages(id)).toEqual([{ role: 'user', content: HEARTBEAT_MESSAGE, channel: HEARTBEAT_CHANNEL }]);
  });
});
