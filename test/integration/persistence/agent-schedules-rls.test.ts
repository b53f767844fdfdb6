import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { sqlAsUser } from '../../support/sql-as-user.js';

/**
 * The schedules' tables as the app roles meet them: a user reads and changes only their own
 * schedules and runs, moves only `next_run_at`, and cannot hang a schedule on another user's agent;
 * the system role sees who is due and when, never what is sent. And the run's primary key: a tick
 * recorded twice fails, taking the message its transaction stored with it.
 */
const { pools, uow } = await openTestPersistence();
const asUser = sqlAsUser(pools);
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const agentOf = async (userId: string) => (await pools.owner.query(`insert into agents (user_id, name, model, status) values ($1, 'A', 'm', 'running') returning id`, [userId])).rows[0].id as string;
const aliceAgent = await agentOf(alice.id);
const bobAgent = await agentOf(bob.id);
const dueAt = new Date(Date.now() - 1_000);
const added = await uow.asUser(alice.id, (s) => s.agentSchedules.addWithin({ id: randomUUID(), agentId: aliceAgent, cron: '* * * * *', timezone: 'UTC', content: 'secret plan', nextRunAt: dueAt }, 5));
if (!('added' in added)) throw new Error('not added');
const schedule = added.added;
await uow.asUser(alice.id, (s) => s.agentSchedules.recordRun({ scheduleId: schedule.id, dueAt: new Date(dueAt.getTime() - 60_000), outcome: 'skipped', reason: 'the agent is stopped', messageId: null, ranAt: new Date() }));

describe('the schedules under row-level security', () => {
  it("when bob reads, moves or deletes alice's schedule or runs, then he sees and touches nothing", async () => {
    expect((await asUser(bob.id, `select * from agent_schedules`)).rows).toEqual([]);
    expect((await asUser(bob.id, `select * from agent_schedule_runs`)).rows).toEqual([]);
    expect((await asUser(bob.id, `update agent_schedules set next_run_at = now() where id = $1`, [schedule.id])).rowCount).toBe(0);
    expect((await asUser(bob.id, `delete from agent_schedules where id = $1`, [schedule.id])).rowCount).toBe(0);
    expect((await asUser(bob.id, `delete from agent_schedule_runs`)).rowCount).toBe(0);
    expect((await uow.asUser(bob.id, (s) => s.agentSchedules.claimDue(schedule.id, new Date())))).toBeNull();
    expect((await asUser(alice.id, `select id from agent_schedules`)).rows).toEqual([{ id: schedule.id }]);
  });

  it("when bob writes a schedule as alice, or on alice's agent as himself, then the database refuses it", async () => {
    const values = (user: string, agent: string) => [randomUUID(), agent, user];
    const insert = `insert into agent_schedules (id, agent_id, user_id, cron, timezone, content, next_run_at) values ($1, $2, $3, '* * * * *', 'UTC', 'x', now())`;
    await expect(asUser(bob.id, insert, values(alice.id, aliceAgent))).rejects.toThrow(/row-level security/);
    await expect(asUser(bob.id, insert, values(bob.id, aliceAgent))).rejects.toThrow(/foreign key/);
    expect((await asUser(bob.id, insert, values(bob.id, bobAgent))).rowCount).toBe(1);
  });

  it('when the owner changes anything but next_run_at, then permission is denied: what is sent is fixed at creation', async () => {
    await expect(asUser(alice.id, `update agent_schedules set content = 'other' where id = $1`, [schedule.id])).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `update agent_schedule_runs set outcome = 'sent'`)).rejects.toThrow(/permission denied/);
  });

  it('when the system role looks, then it sees who is due and when, never the content', async () => {
    expect((await pools.system.query(`select id, user_id, next_run_at from agent_schedules where id = $1`, [schedule.id])).rows).toHaveLength(1);
    await expect(pools.system.query(`select content from agent_schedules`)).rejects.toThrow(/permission denied/);
    await expect(pools.system.query(`select * from agent_schedule_runs`)).rejects.toThrow(/permission denied/);
    await expect(pools.system.query(`update agent_schedules set next_run_at = now()`)).rejects.toThrow(/permission denied/);
  });
});

describe('one run per tick, held by the database', () => {
  it('when a transaction stores a message and records a tick already recorded, then it fails and the message is not stored', async () => {
    const tick = new Date(dueAt.getTime() - 60_000);
    const messages = async () => (await pools.owner.query(`select count(*)::int as n from agent_messages where agent_id = $1`, [aliceAgent])).rows[0].n;
    const before = await messages();
    await expect(
      uow.asUser(alice.id, async (s) => {
        const m = await s.agentMessages.append({ agentId: aliceAgent, userId: alice.id, role: 'user', content: 'secret plan', channel: 'schedule', sessionId: null });
        await s.agentSchedules.recordRun({ scheduleId: schedule.id, dueAt: tick, outcome: 'sent', reason: null, messageId: m.id, ranAt: new Date() });
      }),
    ).rejects.toThrow();
    expect(await messages()).toBe(before);
  });

  it('when runs pile up, then pruning keeps the newest', async () => {
    await uow.asUser(alice.id, async (s) => {
      for (let i = 2; i <= 6; i++) await s.agentSchedules.recordRun({ scheduleId: schedule.id, dueAt: new Date(dueAt.getTime() - i * 60_000), outcome: 'skipped', reason: 'the agent is stopped', messageId: null, ranAt: new Date() });
      await s.agentSchedules.pruneRuns(schedule.id, 3);
    });
    const runs = await uow.asUser(alice.id, (s) => s.agentSchedules.listRuns(schedule.id, 10));
    expect(runs.map((r) => (dueAt.getTime() - r.dueAt.getTime()) / 60_000)).toEqual([1, 2, 3]);
  });
});
