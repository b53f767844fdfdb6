import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RUN_DUE_SCHEDULES, RUN_DUE_SCHEDULES_CRON } from '../../../src/adapters/inbound/jobs/run-due-schedules.handler.js';
import { MAINTENANCE_QUEUE } from '../../../src/adapters/outbound/queue/pg-boss-queue.js';
import { RunDueSchedules } from '../../../src/application/schedules/run-due-schedules.use-case.js';
import { runningAgent, startChatService } from '../../support/agents/chat-service.js';
import { unitsUsed } from '../../support/ai/chat-fixtures.js';
import { call } from '../../support/http-client.js';
import { waitFor } from '../../support/polling.js';

/**
 * A scheduled run end to end on the whole service in one process: the worker runs a real agent
 * host, which asks a local fake OpenAI-format provider for its answer. The tick's message reaches
 * the owner's websocket and the history, the agent answers it, and the answer is metered as any.
 */
const t = await startChatService({ run: 'worker' });
const owner = t.infra.pools.owner;

function openSocket(agentId: string, cookie: string) {
  const ws = new WebSocket(`${t.config.APP_URL.replace(/^http/, 'ws')}/api/agents/${agentId}/ws`, { headers: { cookie, origin: t.config.APP_URL } });
  const frames: any[] = [];
  ws.on('message', (data: Buffer) => frames.push(JSON.parse(String(data))));
  return new Promise<{ ws: WebSocket; frames: any[] }>((resolve, reject) => {
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('unexpected-response', (_req: unknown, res: { statusCode: number }) => reject(new Error(`refused: ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

describe('the worker schedule', () => {
  it('when a worker starts, then the pass over the schedules is declared every minute on the maintenance queue', async () => {
    const schedules = await t.infra.queue.boss.getSchedules(MAINTENANCE_QUEUE);
    expect(schedules).toEqual(expect.arrayContaining([expect.objectContaining({ key: RUN_DUE_SCHEDULES, cron: RUN_DUE_SCHEDULES_CRON, data: { kind: RUN_DUE_SCHEDULES } })]));
    // from here on the test runs the pass itself, at the moment it chooses
    await t.infra.queue.boss.unschedule(MAINTENANCE_QUEUE, RUN_DUE_SCHEDULES);
  });
});

describe('a tick of a running agent', () => {
  it('when a schedule ticks, then its message (channel schedule) and the answer arrive on the websocket and in the history, and the answer is metered', async () => {
    const { user, agent } = await runningAgent(t, { plan: 'label' });
    const created = await call(t.app, { method: 'POST', url: `/api/agents/${agent.id}/schedules`, headers: user.headers, payload: { cron: '0 9 * * *', timezone: 'Europe/Paris', content: 'Daily digest, please' } });
    expect(created.status).toBe(201);
    const before = await unitsUsed(t.container, user.id);
    const opened = await openSocket(agent.id, user.cookie);
    try {
      // the tick is due now (rather than at 09:00 Paris time)
      await owner.query(`update agent_schedules set next_run_at = now() - interval '1 second' where id = $1`, [created.body.schedule.id]);
      expect(await t.container.resolve(RunDueSchedules).execute()).toEqual({ sent: 1, skipped: 0, failed: 0 });

      const frames = await waitFor(async () => opened.frames.filter((f) => f.type === 'message'), (m) => m.length >= 2, 30_000);
      expect(frames.map((f) => [f.message.role, f.message.content, f.message.channel])).toEqual([
        ['user', 'Daily digest, please', 'schedule'],
        ['assistant', 'Hello, world!', 'web'],
      ]);
      expect(t.provider.lastRequest().body.messages.at(-1)).toEqual({ role: 'user', content: 'Daily digest, please' });
      const history = await call(t.app, { method: 'GET', url: `/api/agents/${agent.id}/messages`, headers: { cookie: user.cookie } });
      expect(history.body.messages.map((m: any) => [m.role, m.channel])).toEqual([
        ['assistant', 'web'],
        ['user', 'schedule'],
      ]);
      const mailbox = (await owner.query(`select status from agent_mailbox where agent_id = $1`, [agent.id])).rows;
      expect(mailbox).toEqual([{ status: 'answered' }]);
      const after = await unitsUsed(t.container, user.id);
      expect(after.used).toBeGreaterThan(before.used);
      // the next tick is tomorrow's (or today's) 09:00 in Paris
      const next = (await owner.query(`select next_run_at from agent_schedules where id = $1`, [created.body.schedule.id])).rows[0].next_run_at as Date;
      expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(next)).toBe('09:00');
    } finally {
      opened.ws.close();
    }
  }, 90_000);
});
