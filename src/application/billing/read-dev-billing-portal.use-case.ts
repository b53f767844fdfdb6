import { inject, injectable } from 'tsyringe';
import { BILLING_SETTINGS, type BillingSettings } from '../ports/billing-settings.port.js';
import { DEV_BILLING_PORTAL, type DevBillingPortal } from '../ports/dev-billing-portal.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { changeableSubscriptions, switchesFrom, type PortalSubscription } from './dev-billing-portal-subscriptions.js';

/**
 * The development processor's customer portal, read by the console's page: the signed session
 * vouches for a user (no session cookie needed, like the development checkout's link); it lists
 * the user's active plan subscriptions and what each can switch to. Changes go through
 * ChangeDevBillingPlan.
 */
@injectable()
export class ReadDevBillingPortal {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'subscriptions'>,
    @inject(DEV_BILLING_PORTAL) private readonly portal: DevBillingPortal,
    @inject(BILLING_SETTINGS) private readonly settings: BillingSettings,
  ) {}

  async execute(token: string): Promise<{ returnUrl: string; subscriptions: PortalSubscription[] }> {
    const session = this.portal.open(token);
    const subscriptions = await changeableSubscriptions(this.uow, session.userId);
    return {
      returnUrl: session.returnUrl,
      subscriptions: subscriptions.map((s) => ({ id: s.processorId, plan: s.plan!, status: s.status, switchTo: switchesFrom(this.settings.prices, s.plan!) })),
    };
  }
}
