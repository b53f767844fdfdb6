import type { Selectable } from 'kysely';
import type { SubscriptionKind, SubscriptionRecord } from '../../../../application/ports/subscription-repository.port.js';
import { parsePurchasablePlan } from '../../../../domain/billing/purchasable-plan.js';
import { isSubscriptionStatus } from '../../../../domain/billing/subscription.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { SubscriptionsTable } from './database.js';

export const SUBSCRIPTION_COLUMNS = [
  'processor_subscription_id', 'user_id', 'customer_id', 'kind', 'catalog', 'plan', 'status',
  'current_period_end', 'last_event_at',
] as const;

type SubscriptionRow = Pick<Selectable<SubscriptionsTable>, (typeof SUBSCRIPTION_COLUMNS)[number]>;

export function toSubscription(r: SubscriptionRow): SubscriptionRecord {
  // The table's CHECK constraints admit only these values; a mismatch is a schema bug, so fail loudly.
  if (!isSubscriptionStatus(r.status)) throw new Error(`unexpected subscription status ${r.status}`);
  return {
    processorId: r.processor_subscription_id,
    userId: r.user_id as UserId | null,
    customerId: r.customer_id,
    kind: r.kind as SubscriptionKind | null,
    plan: r.plan ? (parsePurchasablePlan(r.plan, r.catalog) ?? null) : null,
    status: r.status,
    currentPeriodEnd: r.current_period_end,
    lastEventAt: r.last_event_at,
  };
}
