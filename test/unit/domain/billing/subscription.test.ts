import { describe, expect, it } from 'vitest';
import {
  decideConvergence,
  grantsOf,
  isSubscribed,
  isSubscriptionStatus,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
} from '../../../../src/domain/billing/subscription.js';

const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const state = (status: SubscriptionStatus, s: number) => ({ status, lastEventAt: t(s) });
const event = (status: SubscriptionStatus, s: number) => ({ status, eventAt: t(s) });

describe('subscription status', () => {
  it('when active or trialing, then subscribed; every other status is not', () => {
    const subscribed = SUBSCRIPTION_STATUSES.filter(isSubscribed);
    expect(subscribed).toEqual(['active', 'trialing']);
    expect(SUBSCRIPTION_STATUSES).toHaveLength(8);
  });

  it.each(SUBSCRIPTION_STATUSES)('when %s, then provisioning follows subscription and running agents keep running', (s) => {
    expect(grantsOf(s)).toEqual({ provision: isSubscribed(s), paidUsage: isSubscribed(s), keepRunningAgents: true });
  });

  it('when parsing, then only processor statuses are accepted', () => {
    expect(isSubscriptionStatus('past_due')).toBe(true);
    expect(isSubscriptionStatus('expired')).toBe(false);
    expect(isSubscriptionStatus(undefined)).toBe(false);
  });
});

describe('convergence of out-of-order events', () => {
  it('when nothing is stored, then the event applies', () => {
    expect(decideConvergence(undefined, event('incomplete', 0))).toEqual({ apply: true, reason: 'first' });
  });

  it('when the event is newer, then it applies', () => {
    expect(decideConvergence(state('active', 10), event('past_due', 11)).apply).toBe(true);
    expect(decideConvergence(state('past_due', 10), event('active', 11)).apply).toBe(true);
  });

  it('when the event is older, then it never overwrites, even a less advanced state', () => {
    expect(decideConvergence(state('active', 10), event('canceled', 9))).toEqual({ apply: false, reason: 'older' });
    expect(decideConvergence(state('past_due', 10), event('active', 9)).apply).toBe(false);
  });

  it('when the stored state is terminal, then a newer non-terminal event does not revive it', () => {
    expect(decideConvergence(state('canceled', 10), event('active', 20))).toEqual({ apply: false, reason: 'terminal' });
    expect(decideConvergence(state('incomplete_expired', 10), event('incomplete', 20)).apply).toBe(false);
    expect(decideConvergence(state('incomplete_expired', 10), event('canceled', 20)).apply).toBe(true);
  });

  it('when timestamps are equal, then the state further along the lifecycle wins', () => {
    expect(decideConvergence(state('incomplete', 10), event('active', 10))).toEqual({ apply: true, reason: 'tie-not-behind' });
    expect(decideConvergence(state('active', 10), event('incomplete', 10))).toEqual({ apply: false, reason: 'tie-behind' });
    expect(decideConvergence(state('active', 10), event('canceled', 10)).apply).toBe(true);
    expect(decideConvergence(state('canceled', 10), event('active', 10)).apply).toBe(false);
    expect(decideConvergence(state('active', 10), event('active', 10)).apply).toBe(true);
    expect(decideConvergence(state('trialing', 10), event('active', 10)).apply).toBe(true);
  });

  it('when events arrive in any order, then the final state is the same', () => {
    const events = [event('incomplete', 1), event('active', 1), event('past_due', 5), event('active', 8), event('canceled', 9)];
    const run = (order: typeof events) => {
      let stored: { status: SubscriptionStatus; lastEventAt: Date } | undefined;
      for (const e of order) if (decideConvergence(stored, e).apply) stored = { status: e.status, lastEventAt: e.eventAt };
      return stored;
    };
    const expected = run(events);
    expect(expected?.status).toBe('canceled');
    for (let i = 0; i < 50; i++) {
      const shuffled = [...events].sort(() => Math.random() - 0.5);
      expect(run(shuffled)).toEqual(expected);
    }
  });
});
