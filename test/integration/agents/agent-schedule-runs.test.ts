import { describe, expect, it } from 'vitest';
import { CLOCK } from '../../../src/application/ports/clock.port.js';
import { RunDueSchedules, type ScheduleRunResult } from '../../../src/application/schedules/run-due-schedules.use-case.js';
import { LATE_TICK_GRACE_MS, SCHEDULE_CHANNEL } from '../../../src/domain/schedules/agent-schedule.js';
import { ManualClock } from '../../fakes/manual-clock.js';
import { subscribe } from '../../support/ai/chat-fixtures.js';
import { call, signUpAndIn, type SignedIn } from '../../support/http-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Scheduled runs across workers, with a controllable clock: two (and later three) whole services
 * on one database, each with its own pools, pg-boss and container, share one ManualClock that the
 * test moves from tick to tick; at each tick both run their pass several times at once. The
 * minute the workers' pg-boss job would wait for is replaced by moving the clock (decision 0446):
 * the claim under test is the same, the test takes seconds. The agents are rows with no runtime:
 * a sent tick's message stays queued in the mailbox, where it is counted, until the test marks it
 * answered as the agent would (a schedule keeps one message waiting at most, decision 0447).
 */
const MINUTE = 60_000;
const clock = new ManualClock(Math.ceil(Date.now() / MINUTE) * MINUTE + 1_000);
const env = { RATE_LIMIT_AGENTS: '100000' };
const withClock = (t?: string) => ({ env, ...(t ? { databaseUrl: t } : {}), override: (c: import('tsyringe').DependencyContainer) => c.register(CLOCK, { useValue: clock }) });
const first = await startTestApp(withClock());
const second = await startTestApp(withClock(first.databaseUrl));
const owner = first.infra.pools.owner;

/** Moves the clock to `seconds` past the next whole minute. */
function toNextMinute(seconds = 5): void {
  const now = clock.now().getTime();
  clock.advance(Math.floor(now / MINUTE) * MINUTE + MINUTE + seconds * 1_000 - now);
}
const pass = (t: TestApp) => t.container.resolve(RunDueSchedules).execute();
/** Both workers' passes, each twice, all at once; the results summed. */
async function racingPasses(): Promise<ScheduleRunResult> {
  const results = await Promise.all([pass(first), pass(second), pass(second), pass(first)]);
  return results.reduce((a, r) => ({ sent: a.sent + r.sent, skipped: a.skipped + r.skipped, failed: a.failed + r.failed }), { sent: 0, skipped: 0, failed: 0 });
}

async function userWithAgent(status = 'running'): Promise<{ user: SignedIn; agentId: string }> {
  const user = await signUpAndIn(first.app);
  await subscribe(owner, user.id, 'label');
  const agentId = (await owner.query(`insert into agents (user_id, name, model, status) values ($1, 'Scheduled', 'm', $2) returning id`, [user.id, status])).rows[0].id as string;
  return { user, agentId };
}
async function schedule(t: TestApp, u: SignedIn, agentId: string, cron: string, content: string): Promise<string> {
  const res = await call(t.app, { method: 'POST', url: `/api/agents/${agentId}/schedules`, headers: u.headers, payload: { cron, content } });
  expect(res.status).toBe(201);
  return res.body.schedule.id;
}
const scheduledMessages = async (agentId: string) =>
  (await owner.query(`select m.id, m.content, b.status from agent_messages m join agent_mailbox b on b.message_id = m.id where m.agent_id = $1 and m.channel = $2 order by m.created_at`, [agentId, SCHEDULE_CHANNEL])).rows;
const runsOf = async (scheduleId: string) =>
  (await owner.query(`select due_at, outcome, reason, message_id from agent_schedule_runs where schedule_id = $1 order by due_at`, [scheduleId])).rows;
/** The agents answer what is queued (their mailbox rows closed as a worker would). */
const answerAll = (agentIds: string[]) => owner.query(`update agent_mailbox set status = 'answered', finished_at = now() where agent_id = any($1::uuid[]) and status = 'queued'`, [agentIds]);
const nextRunAt = async (scheduleId: string) => (await owner.query(`select next_run_at from agent_schedules where id = $1`, [scheduleId])).rows[0]?.next_run_at as Date;
/** Makes nothing else due: the other tests' schedules move far ahead. */
const parkOthers = (keep: string[]) => owner.query(`update agent_schedules set next_run_at = now() + interval '10 years' where not (id = any($1::uuid[]))`, [keep]);

describe('two workers, one message per tick', () => {
  it('when two workers run their passes at once at each of six ticks, then every schedule sends exactly one message per tick it has, each recorded by one run', async () => {
    const users = await Promise.all([userWithAgent(), userWithAgent(), userWithAgent()]);
    const everyMinute: { id: string; agentId: string }[] = [];
    const everyOther: { id: string; agentId: string }[] = [];
    for (const [i, { user, agentId }] of users.entries()) {
      for (let n = 0; n < 3; n++) everyMinute.push({ id: await schedule(first, user, agentId, '* * * * *', `user ${i} minute ${n}`), agentId });
      everyOther.push({ id: await schedule(second, user, agentId, '*/2 * * * *', `user ${i} even minutes`), agentId });
    }
    await parkOthers([...everyMinute, ...everyOther].map((s) => s.id));

    // nothing is due before the first tick
    expect(await racingPasses()).toEqual({ sent: 0, skipped: 0, failed: 0 });
    let evenTicks = 0;
    for (let tick = 0; tick < 6; tick++) {
      toNextMinute();
      const even = new Date(clock.now()).getUTCMinutes() % 2 === 0;
      if (even) evenTicks += 1;
      const result = await racingPasses();
      expect(result).toEqual({ sent: everyMinute.length + (even ? everyOther.length : 0), skipped: 0, failed: 0 });
      // a pass run again within the same minute finds nothing due
      expect(await racingPasses()).toEqual({ sent: 0, skipped: 0, failed: 0 });
      await answerAll(users.map((u) => u.agentId));
    }

    for (const s of everyMinute) {
      const runs = await runsOf(s.id);
      expect(runs).toHaveLength(6);
      expect(runs.every((r) => r.outcome === 'sent' && r.message_id)).toBe(true);
      // one run per minute, each at its whole minute
      expect(runs.map((r) => r.due_at.getTime() % MINUTE)).toEqual(runs.map(() => 0));
      expect(new Set(runs.map((r) => r.due_at.getTime())).size).toBe(6);
    }
    for (const s of everyOther) expect(await runsOf(s.id)).toHaveLength(evenTicks);
    for (const { agentId } of users) {
      const messages = await scheduledMessages(agentId);
      expect(messages).toHaveLength(3 * 6 + evenTicks);
      expect(messages.every((m) => m.status === 'answered')).toBe(true);
    }
    // every message is one run's, and every sent run names one message
    const runMessages = (await owner.query(`select message_id from agent_schedule_runs where schedule_id = any($1::uuid[])`, [[...everyMinute, ...everyOther].map((s) => s.id)])).rows.map((r) => r.message_id).sort();
    const stored = (await Promise.all(users.map((u) => scheduledMessages(u.agentId)))).flat().map((m) => m.id).sort();
    expect(runMessages).toEqual(stored);
  }, 60_000);
});

describe('ticks that send nothing', () => {
  it('when the agent is stopped (or failed), then its tick is recorded as skipped with the reason, nothing is queued, and the next tick is a minute on', async () => {
    const stopped = await userWithAgent('stopped');
    const failed = await userWithAgent('error');
    const s1 = await schedule(first, stopped.user, stopped.agentId, '* * * * *', 'are you there?');
    const s2 = await schedule(first, failed.user, failed.agentId, '* * * * *', 'are you there?');
    await parkOthers([s1, s2]);
    toNextMinute();
    const due = await nextRunAt(s1);
    expect(await racingPasses()).toEqual({ sent: 0, skipped: 2, failed: 0 });
    expect(await runsOf(s1)).toEqual([{ due_at: due, outcome: 'skipped', reason: 'the agent is stopped', message_id: null }]);
    expect((await runsOf(s2))[0]).toMatchObject({ outcome: 'skipped', reason: 'the agent is error' });
    expect(await scheduledMessages(stopped.agentId)).toEqual([]);
    expect((await owner.query(`select 1 from agent_mailbox where agent_id = $1`, [stopped.agentId])).rows).toEqual([]);
    expect((await nextRunAt(s1)).getTime()).toBe(due.getTime() + MINUTE);

    // the agent runs again: the next tick sends
    await owner.query(`update agents set status = 'running' where id = $1`, [stopped.agentId]);
    toNextMinute();
    expect((await racingPasses()).sent).toBe(1);
    expect(await scheduledMessages(stopped.agentId)).toHaveLength(1);
  });

  it('when the workers were down past the grace, then the old tick is recorded as missed, not sent, and the schedule goes on from now without a burst', async () => {
    const { user, agentId } = await userWithAgent();
    const sid = await schedule(first, user, agentId, '* * * * *', 'tick');
    await parkOthers([sid]);
    // an hour's ticks were never run
    await owner.query(`update agent_schedules set next_run_at = $2 where id = $1`, [sid, new Date(clock.now().getTime() - 60 * MINUTE)]);
    expect(await racingPasses()).toEqual({ sent: 0, skipped: 1, failed: 0 });
    const runs = await runsOf(sid);
    expect(runs).toEqual([expect.objectContaining({ outcome: 'skipped', reason: expect.stringMatching(/^missed/) })]);
    expect((await nextRunAt(sid)).getTime()).toBeGreaterThan(clock.now().getTime());
    expect((await nextRunAt(sid)).getTime()).toBeLessThanOrEqual(clock.now().getTime() + MINUTE);
    expect(await scheduledMessages(agentId)).toEqual([]);

    // within the grace, a late tick still sends (once)
    await owner.query(`update agent_schedules set next_run_at = $2 where id = $1`, [sid, new Date(clock.now().getTime() - LATE_TICK_GRACE_MS / 2)]);
    expect(await racingPasses()).toEqual({ sent: 1, skipped: 0, failed: 0 });
    expect(await scheduledMessages(agentId)).toHaveLength(1);
  });
});

describe('a slow agent', () => {
  it("when the schedule's previous message is still queued at the next tick, then that tick is skipped saying so, and once it is answered the next one sends", async () => {
    const { user, agentId } = await userWithAgent();
    const sid = await schedule(first, user, agentId, '* * * * *', 'again');
    await parkOthers([sid]);
    toNextMinute();
    expect(await racingPasses()).toMatchObject({ sent: 1, skipped: 0 });
    toNextMinute();
    expect(await racingPasses()).toMatchObject({ sent: 0, skipped: 1 });
    expect((await runsOf(sid)).map((r) => [r.outcome, r.reason])).toEqual([
      ['sent', null],
      ['skipped', "the previous tick's message is still waiting for the agent"],
    ]);
    await answerAll([agentId]);
    toNextMinute();
    expect(await racingPasses()).toMatchObject({ sent: 1, skipped: 0 });
    expect(await scheduledMessages(agentId)).toHaveLength(2);
  });
});

describe('a tick that fails', () => {
  it('when one schedule cannot be run (its stored cron no longer reads), then the others still send, and it stays due with nothing stored for it', async () => {
    const { user, agentId } = await userWithAgent();
    const good = await schedule(first, user, agentId, '* * * * *', 'fine');
    const bad = await schedule(first, user, agentId, '* * * * *', 'broken');
    await parkOthers([good, bad]);
    // as if a later cron library read the stored text differently: the owner role writes it past the API
    await owner.query(`update agent_schedules set cron = 'not a cron' where id = $1`, [bad]);
    toNextMinute();
    const due = await nextRunAt(bad);
    expect(await pass(first)).toEqual({ sent: 1, skipped: 0, failed: 1 });
    expect((await scheduledMessages(agentId)).map((m) => m.content)).toEqual(['fine']);
    expect(await runsOf(bad)).toEqual([]);
    expect(await nextRunAt(bad)).toEqual(due);
    expect(first.logs.some((l) => l.includes('a scheduled run could not be run'))).toBe(true);
  });
});

describe('a restart', () => {
  it('when a service starts later on the same database, then it lists the schedules made before and its pass runs them; GET .../runs shows what ran', async () => {
    const { user, agentId } = await userWithAgent();
    const sid = await schedule(first, user, agentId, '* * * * *', 'still here?');
    await parkOthers([sid]);
    const later = await startTestApp(withClock(first.databaseUrl));
    const listed = await call(later.app, { method: 'GET', url: `/api/agents/${agentId}/schedules`, headers: { cookie: user.cookie } });
    expect(listed.body.schedules).toEqual([expect.objectContaining({ id: sid, cron: '* * * * *', content: 'still here?' })]);
    toNextMinute();
    const results = await Promise.all([pass(later), pass(first)]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(1);
    const messages = await scheduledMessages(agentId);
    expect(messages.map((m) => m.content)).toEqual(['still here?']);
    const runs = await call(later.app, { method: 'GET', url: `/api/agents/${agentId}/schedules/${sid}/runs`, headers: { cookie: user.cookie } });
    expect(runs.body.runs).toEqual([{ dueAt: expect.any(String), outcome: 'sent', reason: null, messageId: messages[0].id, ranAt: clock.now().toISOString() }]);
  });
});
