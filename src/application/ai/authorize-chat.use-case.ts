import { inject, injectable } from 'tsyringe';
import { chatLevelFromHeader, requireChatSubscription, SubscriptionRequiredError } from '../../domain/ai/chat-access.js';
import { ADMIN_CHAT_LEVEL } from '../../domain/billing/entitlements.js';
import type { ChatLevel } from '../../domain/billing/plan-catalogs.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type HotRead } from '../ports/unit-of-work.port.js';

/** The chat headers as received. `x-user-email` is not among them: it proves nothing (CONTRACT.md section 4). */
export interface ChatHeaders {
  readonly plan: string | undefined;
  readonly subscriptionId: string | undefined;
}

/** What a caller may do on `/api/ai/chat`, decided before the body is read. */
export interface ChatGrant {
  /** The authenticated caller; absent for an agent runtime's call (its gateway token names the payer). */
  readonly actor?: Actor;
  /** The level whose models the call may use. */
  readonly level: ChatLevel;
  /** Who pays: the subscription's owner, which is the caller (another user's subscription is refused). */
  readonly payer: UserId;
  /** Providers the payer keeps a BYOK key for (the keys themselves are read only when a call uses one). */
  readonly byokProviders: readonly string[];
}

const MAX_SUBSCRIPTION_ID = 255;

/**
 * The plan and subscription rules of `/api/ai/chat`, in the spec's order: `x-user-plan` must name
 * a chat level (402 PLAN_REQUIRED); `x-payment-subscription-id` must name a subscription of the
 * caller that is subscribed and grants at least that level (402 SUBSCRIPTION_REQUIRED). Another
 * user's subscription id reads as absent (row-level security). An admin, decided from
 * ADMIN_EMAILS for the authenticated caller, skips the subscription and chats at network level;
 * admins are still metered against their own allowance. One database round trip (a hot read of
 * the caller's subscriptions and BYOK providers).
 */
@injectable()
export class AuthorizeChat {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: HotRead<'chatAccess'>) {}

  async execute(actor: Actor, headers: ChatHeaders): Promise<ChatGrant> {
    const requested = chatLevelFromHeader(headers.plan);
    const admin = actor.role === 'admin';
    const id = headers.subscriptionId?.trim();
    if (!admin && (!id || id.length > MAX_SUBSCRIPTION_ID)) {
      throw new SubscriptionRequiredError('An active subscription is required: send x-payment-subscription-id');
    }
    const access = await this.uow.readAsUser(actor.userId, 'chatAccess');
    const grant = { actor, payer: actor.userId, byokProviders: access.byokProviders };
    if (admin) return { ...grant, level: ADMIN_CHAT_LEVEL };
    const subscription = access.subscriptions.find((s) => s.processorId === id) ?? null;
    return { ...grant, level: requireChatSubscription(subscription, requested) };
  }
}
