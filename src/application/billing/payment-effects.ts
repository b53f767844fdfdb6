import { inject, injectable } from 'tsyringe';
import { normalizeEmail } from '../../domain/accounts/account-rules.js';
import { CREDIT_PACK_CATALOG } from '../../domain/billing/credit-packs.js';
import { decideConvergence, type SubscriptionStatus } from '../../domain/billing/subscription.js';
import type { UserId } from '../../domain/shared/ids.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import type {
  CheckoutCompletedEvent,
  InvoicePaidEvent,
  InvoicePaymentFailedEvent,
  PaymentEvent,
  SubscriptionChangedEvent,
} from '../ports/payment-webhook-verifier.port.js';
import type { SubscriptionFacts, SubscriptionKind, SubscriptionState } from '../ports/subscription-repository.port.js';
import type { AttachedVia } from '../ports/unmatched-payment-repository.port.js';
import type { BillingSystemScope } from '../ports/scopes/billing-scope.port.js';

/** What applying a payment event touches, inside the caller's system unit of work. */
export type PaymentScope = Pick<BillingSystemScope, 'users' | 'subscriptions' | 'paymentCustomers' | 'paymentLedger' | 'unmatchedPayments' | 'oneCallGrants'>;

/** What one event did; logged, and returned for tests and the benchmark. */
export type PaymentEventOutcome =
  | 'duplicate'
  | 'ignored'
  | 'no-user'
  | 'unmatched'
  | 'unpaid'
  | 'credits-added'
  | 'session-already-credited'
  | 'call-granted'
  | 'call-already-granted'
  | 'call-grant-unknown'
  | 'subscription-created'
  | 'subscription-updated'
  | 'subscription-kept';

/**
 * Whose an event is, and how we know. `reference` (checkout's `client_reference_id`) and
 * `metadata` (the subscription's `userId`) were written by this service for an authenticated
 * user; `customer` is a processor customer stored for a user; `email` is the checkout's e-mail,
 * which proves the owner only once that user has verified it; `attached` is a kept event being
 * applied to the owner found later.
 */
export type PaymentOwner = { userId: UserId } & (
  | { source: 'reference' | 'metadata' | 'customer' | 'attached' }
  | { source: 'email'; verified: boolean }
);

/** An owner who may claim the event's customer's kept events: anything but an unverified e-mail. */
export const vouchesForCustomer = (o: PaymentOwner): boolean => o.source !== 'email' || o.verified;

/** The e-mails and customers an event's owner may be found by: what to lock before looking. */
export function partiesOf(e: PaymentEvent): { emails: string[]; customerIds: string[] } {
  const email = e.type === 'checkout.completed' && e.email ? [normalizeEmail(e.email)] : [];
  const customer = 'customerId' in e && e.customerId ? [e.customerId] : [];
  return { emails: email, customerIds: customer };
}

/**
 * The effects of processor events, inside the caller's system transaction (which also holds the
 * ledger entry or the claim that makes the effect happen once). Shared by the webhook and by the
 * attachment of kept events, so an event applied late does exactly what it would have done on time.
 *
 * - checkout completed: the owner's processor customer is remembered; a paid session grants the
 *   pack's credits (once per session), marks a one-call grant paid (once: only a pending grant
 *   opened by that user for that plugin and session), or makes the subscription active.
 * - subscription changed / invoice paid (active) / invoice payment failed (past_due): upsert by
 *   subscription id; the state is replaced only when decideConvergence allows, so events
 *   arriving out of order converge on the newest state. Facts (owner, plan, customer) missing from
 *   the row are filled in by whichever event knows them, whatever its age.
 */
@injectable()
export class PaymentEffects {
  constructor(@inject(LOGGER) private readonly log: Logger) {}

  /**
   * The owner: `client_reference_id` or the subscription's `userId` metadata (when that user
   * exists), else the stored processor customer, else (checkout only) the e-mail.
   */
  async ownerOf(s: PaymentScope, e: PaymentEvent): Promise<PaymentOwner | null> {
    switch (e.type) {
      case 'checkout.completed': {
        const byId = await this.existingUser(s, e.userId);
        if (byId) return { userId: byId, source: 'reference' };
        const byCustomer = e.customerId ? await s.paymentCustomers.userOf(e.customerId) : null;
        if (byCustomer) return { userId: byCustomer, source: 'customer' };
        const byEmail = e.email ? await s.users.findByEmail(normalizeEmail(e.email)) : null;
        return byEmail ? { userId: byEmail.id, source: 'email', verified: byEmail.emailVerified } : null;
      }
      case 'subscription.changed': {
        const byId = await this.existingUser(s, e.userId);
        if (byId) return { userId: byId, source: 'metadata' };
        const byCustomer = await s.paymentCustomers.userOf(e.customerId);
        return byCustomer ? { userId: byCustomer, source: 'customer' } : null;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const byCustomer = await s.paymentCustomers.userOf(e.customerId);
        return byCustomer ? { userId: byCustomer, source: 'customer' } : null;
      }
      default:
        return null;
    }
  }

  /**
   * Applies the event for `owner` (null: nobody is known). `ownerless` is true when the event
   * carries a payment whose effect has no owner yet: a paid checkout that was not applied, or a
   * subscription row still without a user. The caller keeps such an event.
   */
  async apply(s: PaymentScope, e: PaymentEvent, owner: PaymentOwner | null): Promise<{ outcome: PaymentEventOutcome; ownerless: boolean }> {
    switch (e.type) {
      case 'checkout.completed':
        return this.checkoutCompleted(s, e, owner);
      case 'subscription.changed':
        if (owner) await s.paymentCustomers.remember(owner.userId, e.customerId);
        return this.upsertSubscription(
          s,
          e.subscriptionId,
          { userId: owner?.userId, customerId: e.customerId, kind: subscriptionKind(e.kind), plan: e.plan },
          { status: e.status, lastEventAt: e.createdAt, currentPeriodEnd: e.currentPeriodEnd, plan: e.plan },
        );
      case 'invoice.paid':
        return this.invoice(s, e, owner, 'active');
      case 'invoice.payment_failed':
        return this.invoice(s, e, owner, 'past_due');
      default:
        return { outcome: 'ignored', ownerless: false };
    }
  }

  /**
   * Before an e-mail is marked verified: locks it, then the processor customers its kept events
   * name (the same order the webhook locks in), and returns those customers for `attach`.
   */
  async lockForVerifiedEmail(s: PaymentScope, email: string): Promise<{ email: string; customerIds: string[] }> {
    const normalized = normalizeEmail(email);
    await s.unmatchedPayments.lockParties({ emails: [normalized], customerIds: [] });
    const customerIds = await s.unmatchedPayments.pendingCustomersOf(normalized);
    await s.unmatchedPayments.lockParties({ emails: [], customerIds });
    return { email: normalized, customerIds };
  }

  /**
   * Claims the kept events matched by `match` for `userId` and applies each (oldest first) as
   * its owner's. Runs in the caller's transaction, which must hold the locks of lockParties on
   * the e-mail and the customers.
   */
  async attach(
    s: PaymentScope,
    userId: UserId,
    match: { email?: string; customerIds: readonly string[] },
    how: { via: AttachedVia; byEventId?: string },
  ): Promise<{ eventId: string; outcome: PaymentEventOutcome }[]> {
    const claimed = await s.unmatchedPayments.claim(match, { userId, ...how });
    const done: { eventId: string; outcome: PaymentEventOutcome }[] = [];
    for (const event of claimed) {
      const { outcome } = await this.apply(s, event, { userId, source: 'attached' });
      await s.unmatchedPayments.recordOutcome(event.id, outcome);
      done.push({ eventId: event.id, outcome });
    }
    if (done.length > 0) this.log.info({ userId, via: how.via, byEventId: how.byEventId, attached: done }, 'unmatched payment events attached');
    return done;
  }

  private async checkoutCompleted(s: PaymentScope, e: CheckoutCompletedEvent, owner: PaymentOwner | null): Promise<{ outcome: PaymentEventOutcome; ownerless: boolean }> {
    const isPack = e.pack !== undefined && (e.kind === undefined || e.kind === 'credits');
    const kind = subscriptionKind(e.kind);
    if (!owner) {
      // Only money is kept: a session still unpaid confirms later with its own (paid) event.
      const grants = e.paid && (isPack || e.oneCall !== undefined || (e.subscriptionId !== undefined && kind !== undefined));
      return grants ? { outcome: 'unmatched', ownerless: true } : { outcome: 'no-user', ownerless: false };
    }
    const userId = owner.userId;
    if (e.customerId) await s.paymentCustomers.remember(userId, e.customerId);
    // A delayed payment method completes unpaid; its confirmation comes as another event.
    if (!e.paid) return { outcome: 'unpaid', ownerless: false };
    if (isPack && e.pack) {
      const credits = CREDIT_PACK_CATALOG[e.pack].credits;
      const first = await s.paymentLedger.recordCreditPurchase({ sessionId: e.sessionId, userId, pack: e.pack, credits, eventId: e.id });
      if (!first) return { outcome: 'session-already-credited', ownerless: false };
      await s.users.addCredits(userId, credits);
      return { outcome: 'credits-added', ownerless: false };
    }
    if (e.kind === 'one-call') return this.oneCallPaid(s, e, userId);
    if (!e.subscriptionId || !kind) return { outcome: 'ignored', ownerless: false };
    return this.upsertSubscription(s, e.subscriptionId, { userId, customerId: e.customerId, kind, plan: e.plan }, { status: 'active', lastEventAt: e.createdAt });
  }

  /** The grant must be the one this user opened for this plugin and session: a forged or mismatched one grants nothing. */
  private async oneCallPaid(s: PaymentScope, e: CheckoutCompletedEvent, userId: UserId): Promise<{ outcome: PaymentEventOutcome; ownerless: boolean }> {
    const marked = e.oneCall
      ? await s.oneCallGrants.markPaid({ grantId: e.oneCall.grantId, userId, plugin: e.oneCall.plugin, sessionId: e.sessionId, eventId: e.id })
      : 'unknown';
    if (marked === 'unknown') {
      this.log.warn({ eventId: e.id, sessionId: e.sessionId, userId, grantId: e.oneCall?.grantId }, 'paid one-call checkout names no grant of its buyer');
      return { outcome: 'call-grant-unknown', ownerless: false };
    }
    return { outcome: marked === 'paid' ? 'call-granted' : 'call-already-granted', ownerless: false };
  }

  private async invoice(
    s: PaymentScope,
    e: InvoicePaidEvent | InvoicePaymentFailedEvent,
    owner: PaymentOwner | null,
    status: SubscriptionStatus,
  ): Promise<{ outcome: PaymentEventOutcome; ownerless: boolean }> {
    if (!e.subscriptionId) return { outcome: 'ignored', ownerless: false }; // a one-off invoice: nothing to change
    return this.upsertSubscription(s, e.subscriptionId, { userId: owner?.userId, customerId: e.customerId }, { status, lastEventAt: e.createdAt });
  }

  /**
   * Upsert by processor id under the row's lock. A row another delivery is inserting at the same
   * moment makes our insert a no-op: we then lock that row and decide against it.
   */
  private async upsertSubscription(
    s: PaymentScope,
    processorId: string,
    facts: SubscriptionFacts,
    state: SubscriptionState,
  ): Promise<{ outcome: PaymentEventOutcome; ownerless: boolean }> {
    for (;;) {
      const stored = await s.subscriptions.lock(processorId);
      if (!stored) {
        if (await s.subscriptions.insert(processorId, facts, state)) return { outcome: 'subscription-created', ownerless: !facts.userId };
        continue;
      }
      const decision = decideConvergence(stored, { status: state.status, eventAt: state.lastEventAt });
      await s.subscriptions.update(processorId, facts, decision.apply ? state : null);
      return { outcome: decision.apply ? 'subscription-updated' : 'subscription-kept', ownerless: !(stored.userId ?? facts.userId) };
    }
  }

  private async existingUser(s: PaymentScope, userId: UserId | undefined): Promise<UserId | null> {
    return userId ? ((await s.users.findById(userId))?.id ?? null) : null;
  }
}

const subscriptionKind = (kind: string | undefined): SubscriptionKind | undefined =>
  kind === 'subscription' || kind === 'storage' ? kind : undefined;
