import type { UnmatchedPaymentRecord } from '../../../../application/ports/unmatched-payment-repository.port.js';
import type { SubscriptionRecord } from '../../../../application/ports/subscription-repository.port.js';

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

/** A kept processor event as admins see it: ids and times, never the payload. */
export const unmatchedPaymentBody = (e: UnmatchedPaymentRecord) => ({
  id: e.eventId,
  type: e.type,
  email: e.email,
  customerId: e.customerId,
  subscriptionId: e.subscriptionId,
  plan: e.plan?.plan ?? null,
  catalog: e.plan?.catalog ?? null,
  pack: e.pack,
  createdAt: e.createdAt.toISOString(),
  receivedAt: e.receivedAt.toISOString(),
  attachedAt: e.attachedAt?.toISOString() ?? null,
  attachedUserId: e.attachedUserId,
  attachedVia: e.attachedVia,
  attachedByEventId: e.attachedByEventId,
  attachedOutcome: e.attachedOutcome,
});
