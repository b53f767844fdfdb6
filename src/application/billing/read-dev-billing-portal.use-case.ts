import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { BILLING_SETTINGS, type BillingSettings } from '../ports/billing-settings.port.js';
import { DEV_BILLING_PORTAL, type DevBillingPortal } from '../ports/dev-billing-portal.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { changeableSubscriptions, switchesFrom, type PortalSubscription } from './dev-billing-portal-subscriptions.js';

/**
 * The development processor's customer portal, read by the console's page: the signed session
 * names a user, and only that user, signed in, may open it (decision 0390: a link that leaks from
 * the address bar is not a capability); it lists the user's active plan subscriptions and what
 * each can switch to. Changes go through ChangeDevBillingPlan.
 */
@injectable()
export class ReadDevBillingPortal {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'subscriptions'>,
    @inject(DEV_BILLING_PORTAL) private readonly portal: DevBillingPortal,
    @inject(BILLING_SETTINGS) private readonly settings: BillingSettings,
  ) {}

  async execute(actor: Pick<Actor, 'userId'>, token: string): Promise<{ returnUrl: string; subscriptions: PortalSubscription[] }> {
    const session = openAs(this.portal, actor, token);
    const subscriptions = await changeableSubscriptions(this.uow, session.userId);
    return {
      returnUrl: session.returnUrl,
      subscriptions: subscriptions.map((s) => ({ id: s.processorId, plan: s.plan!, status: s.status, switchTo: switchesFrom(this.settings.prices, s.plan!) })),
    };
  }
}

/**
 * Opens a portal session for the signed-in caller: another user's session is not found, as
 * another user's data is everywhere.
 * @throws DomainError DEV_CHECKOUT_INVALID for a malformed, tampered or expired session; NOT_FOUND for another user's.
 */
export function openAs(portal: DevBillingPortal, actor: Pick<Actor, 'userId'>, token: string): ReturnType<DevBillingPortal['open']> {
  const session = portal.open(token);
  if (session.userId !== actor.userId) throw new NotFoundError('Billing portal session');
  return session;
}
