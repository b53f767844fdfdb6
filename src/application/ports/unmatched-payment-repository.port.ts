import type { CreditPack } from '../../domain/billing/credit-packs.js';
import type { PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { PaymentEvent } from './payment-webhook-verifier.port.js';

/** How a kept event found its owner: the owner's verified e-mail, or a later event that named them. */
export type AttachedVia = 'verified-email' | 'later-event';

/** One kept event as admins list it. */
export interface UnmatchedPaymentRecord {
  eventId: string;
  /** The processor's event type (`checkout.session.completed`, ...). */
  type: string;
  email: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  plan: PurchasablePlan | null;
  pack: CreditPack | null;
  /** When the processor created the event. */
  createdAt: Date;
  receivedAt: Date;
  attachedAt: Date | null;
  attachedUserId: UserId | null;
  attachedVia: AttachedVia | null;
  /** The event whose owner it was attached to, for `later-event`. */
  attachedByEventId: string | null;
  /** What applying it did (`credits-added`, `subscription-updated`, ...). */
  attachedOutcome: string | null;
}

export type UnmatchedPaymentState = 'pending' | 'attached' | 'all';

/**
 * Paid processor events that matched no user (system unit of work only). An event is kept in the
 * transaction that ledgered it, and attached at most once: a claim marks it attached in the
 * transaction that applies it, so if applying rolls back, the claim does too.
 */
export interface UnmatchedPaymentRepository {
  /**
   * Serialises work on these e-mails and processor customers until the transaction ends (a
   * transaction-scoped lock per party). Taken before an event's owner is looked up and before a
   * verification attaches, so an event being kept and an attachment that should find it run one
   * after the other, never past each other. Locks are taken e-mails first, then customers, each in
   * sorted order; a transaction calls this once, or first for e-mails and then for customers.
   */
  lockParties(parties: { emails: readonly string[]; customerIds: readonly string[] }): Promise<void>;
  /** Keeps an event. A second call for the same event id changes nothing. */
  keep(event: PaymentEvent): Promise<void>;
  /** Processor customers named by pending events of this e-mail (compared case-insensitively). */
  pendingCustomersOf(email: string): Promise<string[]>;
  /**
   * Marks as attached to `userId` every pending event of this e-mail or of one of these
   * customers, and returns them, oldest event first. Of concurrent claims of one event, one gets
   * it; the others wait for that transaction and skip it (or get it, if it rolled back).
   */
  claim(
    match: { email?: string; customerIds: readonly string[] },
    attachment: { userId: UserId; via: AttachedVia; byEventId?: string },
  ): Promise<PaymentEvent[]>;
  /** Records what applying a claimed event did. */
  recordOutcome(eventId: string, outcome: string): Promise<void>;
  /** Newest first. */
  list(query: { state: UnmatchedPaymentState; limit: number; offset: number }): Promise<UnmatchedPaymentRecord[]>;
}
