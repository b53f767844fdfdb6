import type { SubscriptionRecord } from '../../../application/ports/subscription-repository.port.js';

/** A subscription as clients see it: the processor id is the one `x-payment-subscription-id` names. */
export const subscriptionBody = (s: SubscriptionRecord) => ({
  id: s.processorId,
  kind: s.kind ?? 'subscription',
  plan: s.plan?.plan ?? null,
  catalog: s.plan?.catalog ?? null,
  status: s.status,
  currentPeriodEnd: s.currentPeriodEnd?.toISOString() ?? null,
  updatedAt: s.lastEventAt.toISOString(),
});

/** Credit pack prices as strings, as buy-credits answers them (`"5.00"`, USD). */
export const priceText = (usd: number): string => usd.toFixed(2);
