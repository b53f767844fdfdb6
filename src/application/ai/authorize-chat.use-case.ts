import { inject, injectable } from 'tsyringe';
import { chatLevelFromHeader, requireChatSubscription, SubscriptionRequiredError } from '../../domain/ai/chat-access.js';
import { ADMIN_CHAT_LEVEL } from '../../domain/billing/entitlements.js';
import type { ChatLevel } from '../../domain/billing/plan-catalogs.js';
import type { UserId } from '../../domain/shared/ids.js';
import { actingKey, type ActingKey, type Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type ChatAccess, type HotRead } from '../ports/unit-of-work.port.js';
import type { UsageExhaustedError } from '../../domain/billing/billing.errors.js';
import type { UsageReservation } from '../ports/usage-meter.port.js';
import type { UsageReservations } from '../billing/usage-reservations.js';

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
  /**
   * The payer's API key the call is made under (decision 0425): its models bound the candidates and
   * its daily units are reserved with the payer's. Absent for a session's call and a runtime's.
   */
  readonly key?: ActingKey | null;
}

/**
 * A grant whose checks are still on their way (a database read): the payer and the level they are
 * expected to confirm are known at once, so the call's reservation can be taken while they run
 * (ChatMetering.open). `confirmation` is the grant as the checks decide it, or rejects with their
 * refusal; it must be awaited before anything is answered.
 */
export interface PendingChatGrant {
  readonly payer: UserId;
  readonly level: ChatLevel;
  /** As ChatGrant's: known with the credential, before the checks. */
  readonly key?: ActingKey | null;
  readonly confirmation: Promise<ChatGrant>;
  /**
   * The call's reservation and the grant's own check in one statement (UsageMeter's
   * reserveWithChatAccess, reserveWithRuntimeCaller), so that the grant's own read is never made:
   * the reservation taken for `payer` (or its refusal) and the same decision as `confirmation`'s.
   */
  readonly reserveWithCheck?: (reservations: UsageReservations, units: number) => Promise<CheckedReservation>;
}

/** A reservation taken with the grant's check (PendingChatGrant.reserveWithCheck). */
export interface CheckedReservation {
  readonly taken: UsageReservation | UsageExhaustedError;
  /** What the payer could still reserve once the statement ran (UsageMeter's `available`). */
  readonly available: number;
  /** The grant as the check decided it; throws its refusal. */
  confirm(): ChatGrant;
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
 *
 * The headers are judged at once (they throw here); the grant comes back pending, its payer and
 * level already known (the caller's, the header's or the admin's), so the call's reservation can
 * be taken with the read (ChatMetering.open: in the same statement, `reserveWithCheck`, or at the same
 * time). Its `confirmation` (the read, made when first asked for) rejects with the subscription's
 * refusal; whoever answers must have it first (the body's and the model's errors come after it).
 */
@injectable()
export class AuthorizeChat {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: HotRead<'chatAccess'>) {}

  execute(actor: Actor, headers: ChatHeaders): PendingChatGrant {
    const requested = chatLevelFromHeader(headers.plan);
    const admin = actor.role === 'admin';
    const id = headers.subscriptionId?.trim();
    if (!admin && (!id || id.length > MAX_SUBSCRIPTION_ID)) {
      throw new SubscriptionRequiredError('An active subscription is required: send x-payment-subscription-id');
    }
    return pendingChatGrant(this.uow, actor, admin ? ADMIN_CHAT_LEVEL : requested, (access) => {
      const grant = { actor, payer: actor.userId, byokProviders: access.byokProviders };
      if (admin) return { ...grant, level: ADMIN_CHAT_LEVEL };
      const subscription = access.subscriptions.find((s) => s.processorId === id) ?? null;
      return { ...grant, level: requireChatSubscription(subscription, requested) };
    });
  }
}

/**
 * A grant for `level`, decided by `decide` from the caller's chat access: read once, when its
 * confirmation is first asked for, or brought by the reservation's own statement (reserveWithCheck).
 * Shared by AuthorizeChat and AuthorizeBestPlanChat.
 */
export function pendingChatGrant(uow: HotRead<'chatAccess'>, actor: Actor, level: ChatLevel, decideAccess: (access: ChatAccess) => ChatGrant): PendingChatGrant {
  // the API key the call is made under (decision 0425) goes with every grant decided here
  const key = actingKey(actor.credential);
  const decide = (access: ChatAccess): ChatGrant => ({ ...decideAccess(access), key });
  // the read starts when the confirmation is first asked for: not at all when the reservation's
  // statement brings the access along (reserveWithCheck)
  let confirmation: Promise<ChatGrant> | undefined;
  return {
    payer: actor.userId,
    level,
    key,
    get confirmation() {
      if (!confirmation) {
        confirmation = uow.readAsUser(actor.userId, 'chatAccess').then(decide);
        // awaited by whoever answers; never an unhandled rejection meanwhile
        confirmation.catch(() => undefined);
      }
      return confirmation;
    },
    reserveWithCheck: async (reservations, units) => {
      const r = await reservations.reserveWithChatAccess(actor.userId, units, key?.id);
      return { taken: r.taken, available: r.available, confirm: () => decide(r.chatAccess) };
    },
  };
}
