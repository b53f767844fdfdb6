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
import { UNIT_OF_WORK, type SystemScope, type UnitOfWork } from '../ports/unit-of-work.port.js';

/** What one event did; logged, and returned for tests and the benchmark. */
export type PaymentEventOutcome =
  | 'duplicate'
  | 'ignored'
  | 'no-user'
  | 'unpaid'
  | 'credits-added'
  | 'session-already-credited'
  | 'subscription-created'
  | 'subscription-updated'
  | 'subscription-kept';

/**
 * Applies one processor event, exactly once: its id goes into the ledger in the same system
 * transaction as its effect, so a redelivery (or a concurrent delivery, which waits on the
 * ledger's key) finds it and changes nothing. Shared by the webhook and the development
 * checkout's completion page.
 *
 * - checkout completed: the user by `client_reference_id`, else by e-mail; their processor
 *   customer is remembered; a paid session grants the pack's credits (once per session) or
 *   makes the subscription active.
 * - subscription changed / invoice paid (active) / invoice payment failed (past_due): upsert by
 *   subscription id; the state is replaced only when decideConvergence allows, so events
 *   arriving out of order converge on the newest state. Facts (owner, plan, customer) missing from
 *   the row are filled in by whichever event knows them, whatever its age.
 */
@injectable()
export class ApplyPaymentEvent {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(event: PaymentEvent): Promise<PaymentEventOutcome> {
    const outcome = await this.uow.asSystem(async (s) => {
      if (!(await s.paymentLedger.recordEvent(event.id, event.processorType))) return 'duplicate';
      switch (event.type) {
        case 'checkout.completed':
          return this.checkoutCompleted(s, event);
        case 'subscription.changed':
          return this.subscriptionChanged(s, event);
        case 'invoice.paid':
          return this.invoice(s, event, 'active');
        case 'invoice.payment_failed':
          return this.invoice(s, event, 'past_due');
        default:
          return 'ignored';
      }
    });
    this.log.info({ eventId: event.id, eventType: event.processorType, outcome }, 'payment event processed');
    return outcome;
  }

  private async checkoutCompleted(s: SystemScope, e: CheckoutCompletedEvent): Promise<PaymentEventOutcome> {
    const userId = await this.findUser(s, e.userId, e.email);
    if (!userId) return 'no-user';
    if (e.customerId) await s.paymentCustomers.remember(userId, e.customerId);
    // A delayed payment method completes unpaid; its confirmation comes as another event.
    if (!e.paid) return 'unpaid';
    if (e.pack && (e.kind === undefined || e.kind === 'credits')) {
      const credits = CREDIT_PACK_CATALOG[e.pack].credits;
      const first = await s.paymentLedger.recordCreditPurchase({ sessionId: e.sessionId, userId, pack: e.pack, credits, eventId: e.id });
      if (!first) return 'session-already-credited';
      await s.users.addCredits(userId, credits);
      return 'credits-added';
    }
    const kind = subscriptionKind(e.kind);
    if (!e.subscriptionId || !kind) return 'ignored';
    return this.upsertSubscription(s, e.subscriptionId, { userId, customerId: e.customerId, kind, plan: e.plan }, { status: 'active', lastEventAt: e.createdAt });
  }

  private async subscriptionChanged(s: SystemScope, e: SubscriptionChangedEvent): Promise<PaymentEventOutcome> {
    const userId = (await this.existingUser(s, e.userId)) ?? (await s.paymentCustomers.userOf(e.customerId));
    if (userId) await s.paymentCustomers.remember(userId, e.customerId);
    return this.upsertSubscription(
      s,
      e.subscriptionId,
      { userId: userId ?? undefined, customerId: e.customerId, kind: subscriptionKind(e.kind), plan: e.plan },
      { status: e.status, lastEventAt: e.createdAt, currentPeriodEnd: e.currentPeriodEnd },
    );
  }

  private async invoice(s: SystemScope, e: InvoicePaidEvent | InvoicePaymentFailedEvent, status: SubscriptionStatus): Promise<PaymentEventOutcome> {
    if (!e.subscriptionId) return 'ignored'; // a one-off invoice: nothing to change
    const userId = await s.paymentCustomers.userOf(e.customerId);
    return this.upsertSubscription(s, e.subscriptionId, { userId: userId ?? undefined, customerId: e.customerId }, { status, lastEventAt: e.createdAt });
  }

  /**
   * Upsert by processor id under the row's lock. A row another delivery is inserting at the same
   * moment makes our insert a no-op: we then lock that row and decide against it.
   */
  private async upsertSubscription(s: SystemScope, processorId: string, facts: SubscriptionFacts, state: SubscriptionState): Promise<PaymentEventOutcome> {
    for (;;) {
      const stored = await s.subscriptions.lock(processorId);
      if (!stored) {
        if (await s.subscriptions.insert(processorId, facts, state)) return 'subscription-created';
        continue;
      }
      const decision = decideConvergence(stored, { status: state.status, eventAt: state.lastEventAt });
      await s.subscriptions.update(processorId, facts, decision.apply ? state : null);
      return decision.apply ? 'subscription-updated' : 'subscription-kept';
    }
  }

  private async findUser(s: SystemScope, userId: UserId | undefined, email: string | undefined): Promise<UserId | null> {
    const byId = await this.existingUser(s, userId);
    if (byId) return byId;
    return email ? ((await s.users.findByEmail(normalizeEmail(email)))?.id ?? null) : null;
  }

  private async existingUser(s: SystemScope, userId: UserId | undefined): Promise<UserId | null> {
    return userId ? ((await s.users.findById(userId))?.id ?? null) : null;
  }
}

const subscriptionKind = (kind: string | undefined): SubscriptionKind | undefined =>
  kind === 'subscription' || kind === 'storage' ? kind : undefined;
