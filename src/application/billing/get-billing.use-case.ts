import { inject, injectable } from 'tsyringe';
import { BILLING_PLAN_CATALOG, type BillingPlanOffer } from '../../domain/billing/catalog.js';
import type { BillingPlan } from '../../domain/billing/plan-catalogs.js';
import { bestSubscription, profilePlan, type ProfilePlan } from '../../domain/billing/profile-plan.js';
import type { Actor } from '../auth/actor.js';
import type { SubscriptionRecord } from '../ports/subscription-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { USAGE_METER, type UsageMeter } from '../ports/usage-meter.port.js';

export interface BillingOverview {
  plans: Readonly<Record<BillingPlan, BillingPlanOffer>>;
  currentPlan: ProfilePlan;
  /** The best subscribed plan's status; else the newest plan subscription's (e.g. `past_due`); else `none`. */
  subscriptionStatus: string;
  byokEnabled: boolean;
  usage: { dailyUnits: number; used: number; remaining: number };
  /** The caller's subscriptions, newest first: their ids are what `x-payment-subscription-id` names. */
  subscriptions: SubscriptionRecord[];
}

/** GET /api/billing: plans on sale, the caller's plan and status, BYOK, and today's usage. */
@injectable()
export class GetBilling {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'byokKeys' | 'subscriptions'>,
    @inject(USAGE_METER) private readonly meter: UsageMeter,
  ) {}

  async execute(actor: Actor): Promise<BillingOverview> {
    const { subscriptions, byokEnabled } = await this.uow.asUser(actor.userId, async (s) => ({
      subscriptions: await s.subscriptions.list(),
      byokEnabled: (await s.byokKeys.list()).length > 0,
    }));
    const usage = await this.meter.usage(actor.userId);
    const plans = subscriptions.filter((s) => s.kind !== 'storage');
    return {
      plans: BILLING_PLAN_CATALOG,
      currentPlan: profilePlan(plans),
      subscriptionStatus: bestSubscription(plans)?.status ?? plans[0]?.status ?? 'none',
      byokEnabled,
      usage: { dailyUnits: usage.dailyUnits, used: usage.used, remaining: usage.remaining },
      subscriptions,
    };
  }
}
