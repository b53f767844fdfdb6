import { sql, type Kysely, type Selectable } from 'kysely';
import type { PaymentEvent } from '../../../../application/ports/payment-webhook-verifier.port.js';
import type {
  AttachedVia,
  UnmatchedPaymentRecord,
  UnmatchedPaymentRepository,
  UnmatchedPaymentState,
} from '../../../../application/ports/unmatched-payment-repository.port.js';
import { normalizeEmail } from '../../../../domain/accounts/account-rules.js';
import { isCreditPack } from '../../../../domain/billing/credit-packs.js';
import { parsePurchasablePlan } from '../../../../domain/billing/purchasable-plan.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { Database, UnmatchedPaymentEventsTable } from './database.js';

/**
 * The event is stored as its normalized JSON (dates as ISO text) and read back with its dates
 * revived; the row is only ever written by this adapter, from a PaymentEvent.
 */
const DATE_FIELDS = ['createdAt', 'currentPeriodEnd'] as const;
const decode = (json: Record<string, unknown>): PaymentEvent => {
  const e: Record<string, unknown> = { ...json };
  for (const f of DATE_FIELDS) if (typeof e[f] === 'string') e[f] = new Date(e[f] as string);
  return e as unknown as PaymentEvent;
};

/** The lookup facts of an event, copied beside it. */
function factsOf(e: PaymentEvent) {
  const fields = e as unknown as Record<string, unknown>;
  const text = (k: string) => (typeof fields[k] === 'string' ? (fields[k] as string) : null);
  const email = text('email');
  const plan = e.type === 'checkout.completed' || e.type === 'subscription.changed' ? e.plan : undefined;
  return {
    email: email ? normalizeEmail(email) : null,
    customer_id: text('customerId'),
    subscription_id: text('subscriptionId'),
    session_id: text('sessionId'),
    catalog: plan?.catalog ?? null,
    plan: plan?.plan ?? null,
    pack: e.type === 'checkout.completed' ? (e.pack ?? null) : null,
  };
}

/** A lock key per party: e-mails sort before customers, so every transaction takes them in one order. */
const partyKeys = (emails: readonly string[], customerIds: readonly string[]): string[] => [
  ...[...new Set(emails.map(normalizeEmail))].sort().map((e) => `unmatched-payments:1:${e}`),
  ...[...new Set(customerIds)].sort().map((c) => `unmatched-payments:2:${c}`),
];

const toRecord = (r: Selectable<UnmatchedPaymentEventsTable>): UnmatchedPaymentRecord => ({
  eventId: r.event_id,
  type: r.type,
  email: r.email,
  customerId: r.customer_id,
  subscriptionId: r.subscription_id,
  plan: r.plan ? (parsePurchasablePlan(r.plan, r.catalog) ?? null) : null,
  pack: isCreditPack(r.pack) ? r.pack : null,
  createdAt: r.event_created_at,
  receivedAt: r.received_at,
  attachedAt: r.attached_at,
  attachedUserId: r.attached_user_id as UserId | null,
  attachedVia: r.attached_via as AttachedVia | null,
  attachedByEventId: r.attached_by_event_id,
  attachedOutcome: r.attached_outcome,
});

export class KyselyUnmatchedPaymentRepository implements UnmatchedPaymentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async lockParties(parties: { emails: readonly string[]; customerIds: readonly string[] }): Promise<void> {
    const keys = partyKeys(parties.emails, parties.customerIds);
    if (keys.length === 0) return;
    // One statement; unnest yields the keys in array order, and the aggregate takes them one by one.
    await sql`SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest(${keys}::text[]) AS k`.execute(this.db);
  }

  async keep(event: PaymentEvent): Promise<void> {
    await this.db
      .insertInto('unmatched_payment_events')
      .values({ event_id: event.id, type: event.processorType, ...factsOf(event), event: JSON.stringify(event), event_created_at: event.createdAt })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  }

  async pendingCustomersOf(email: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('unmatched_payment_events')
      .select('customer_id')
      .distinct()
      .where('attached_at', 'is', null)
      .where('email', '=', email.trim())
      .where('customer_id', 'is not', null)
      .execute();
    return rows.map((r) => r.customer_id!);
  }

  async claim(
    match: { email?: string; customerIds: readonly string[] },
    attachment: { userId: UserId; via: AttachedVia; byEventId?: string },
  ): Promise<PaymentEvent[]> {
    if (match.email === undefined && match.customerIds.length === 0) return [];
    const rows = await this.db
      .updateTable('unmatched_payment_events')
      .set({
        attached_at: sql<Date>`now()`,
        attached_user_id: attachment.userId,
        attached_via: attachment.via,
        attached_by_event_id: attachment.byEventId ?? null,
      })
      .where('attached_at', 'is', null)
      .where((eb) =>
        eb.or([
          ...(match.email !== undefined ? [eb('email', '=', match.email.trim())] : []),
          ...(match.customerIds.length > 0 ? [eb('customer_id', '=', eb.fn.any(eb.val([...match.customerIds])))] : []),
        ]),
      )
      .returning(['event', 'event_created_at', 'received_at', 'event_id'])
      .execute();
    rows.sort(
      (a, b) =>
        a.event_created_at.getTime() - b.event_created_at.getTime() ||
        a.received_at.getTime() - b.received_at.getTime() ||
        a.event_id.localeCompare(b.event_id),
    );
    return rows.map((r) => decode(r.event));
  }

  async recordOutcome(eventId: string, outcome: string): Promise<void> {
    await this.db.updateTable('unmatched_payment_events').set({ attached_outcome: outcome }).where('event_id', '=', eventId).execute();
  }

  async list(query: { state: UnmatchedPaymentState; limit: number; offset: number }): Promise<UnmatchedPaymentRecord[]> {
    let q = this.db.selectFrom('unmatched_payment_events').selectAll();
    if (query.state === 'pending') q = q.where('attached_at', 'is', null);
    if (query.state === 'attached') q = q.where('attached_at', 'is not', null);
    const rows = await q.orderBy('received_at', 'desc').orderBy('event_id').limit(query.limit).offset(query.offset).execute();
    return rows.map(toRecord);
  }
}
