import { describe, expect, it } from 'vitest';
import { ADMIN_SCHEDULES_PER_AGENT, schedulesPerAgent, schedulesPerAgentOf } from '../../../../src/domain/billing/schedule-allowance.js';
import { entitlementsOf } from '../../../../src/domain/billing/entitlements.js';
import { billingPlan, checkoutPlan, PURCHASABLE_PLANS } from '../../../../src/domain/billing/purchasable-plan.js';
import { AGENT_STATUSES } from '../../../../src/domain/agents/agent-status.js';
import { cronShapeProblem, decideTick, LATE_TICK_GRACE_MS } from '../../../../src/domain/schedules/agent-schedule.js';

describe('the shape of a cron', () => {
  it('when it has five fields or names an alias, then it is accepted (what the fields say is the calendar\'s to read)', () => {
    for (const cron of ['* * * * *', '*/5 9-17 * * 1-5', ' 0 9 * * * ', '@daily', '@HOURLY', '@yearly', '@midnight']) expect(cronShapeProblem(cron), cron).toBeNull();
  });

  it('when it has a seconds field, another count of fields, or an unknown alias, then it is refused with why', () => {
    expect(cronShapeProblem('* * * * * *')).toMatch(/seconds/);
    expect(cronShapeProblem('0 0 9 * * *')).toMatch(/seconds/);
    for (const cron of ['* * * *', '* * * * * * *', 'daily']) expect(cronShapeProblem(cron), cron).toMatch(/five fields/);
    for (const cron of ['@reboot', '@every 5m']) expect(cronShapeProblem(cron), cron).toMatch(/is not one of/);
  });
});

describe('deciding a tick', () => {
  const due = new Date('2026-11-29T09:00:00Z');
  const at = (ms: number) => new Date(due.getTime() + ms);

  it('when the agent is running and the tick is within the grace, then it sends', () => {
    expect(decideTick('running', due, at(5_000))).toEqual({ kind: 'send' });
    expect(decideTick('running', due, at(LATE_TICK_GRACE_MS))).toEqual({ kind: 'send' });
  });

  it('when the agent is in any other state, then the tick is skipped naming the state', () => {
    for (const status of AGENT_STATUSES.filter((s) => s !== 'running')) expect(decideTick(status, due, at(1_000))).toEqual({ kind: 'skip', reason: `the agent is ${status}` });
  });

  it("when the schedule's previous message is still queued, then the tick is skipped: one message waits at most", () => {
    expect(decideTick('running', due, at(1_000), true)).toEqual({ kind: 'skip', reason: "the previous tick's message is still waiting for the agent" });
    expect(decideTick('running', due, at(1_000), false)).toEqual({ kind: 'send' });
    // the agent's state is the first reason given
    expect(decideTick('stopped', due, at(1_000), true)).toEqual({ kind: 'skip', reason: 'the agent is stopped' });
  });

  it('when the tick is run later than the grace, then it is skipped as missed, whatever the agent', () => {
    for (const status of AGENT_STATUSES) expect(decideTick(status, due, at(LATE_TICK_GRACE_MS + 1))).toMatchObject({ kind: 'skip', reason: expect.stringMatching(/^missed/) });
  });
});

describe("the plan's schedules per agent", () => {
  it('every purchasable plan has a positive figure, and a larger plan (by its agents) never allows fewer', () => {
    const rows = PURCHASABLE_PLANS.map((p) => ({ agents: entitlementsOf(p).agents, schedules: schedulesPerAgentOf(p) }));
    for (const r of rows) expect(r.schedules).toBeGreaterThan(0);
    for (const a of rows) for (const b of rows) if (a.agents < b.agents) expect(a.schedules).toBeLessThanOrEqual(b.schedules);
  });

  it('when a user holds several plans, then the best figure; none and not an admin: null (402); an admin: the admin figure', () => {
    expect(schedulesPerAgent([checkoutPlan('label'), billingPlan('scale')], false)).toBe(25);
    expect(schedulesPerAgent([checkoutPlan('label')], false)).toBe(5);
    expect(schedulesPerAgent([], false)).toBeNull();
    expect(schedulesPerAgent([], true)).toBe(ADMIN_SCHEDULES_PER_AGENT);
  });
});
