import { isSubscribed, SUBSCRIPTION_STATUSES } from '../../../domain/billing/subscription.js';

/**
 * Domain constants as SQL literals, built once, for statements that must decide in one round trip
 * what the domain decides in TypeScript. Only constants of the domain are pasted, never a value
 * from a caller.
 */

/** The statuses that count as subscribed (`isSubscribed`), as `'active', 'trialing'`. */
export const SUBSCRIBED_STATUSES_SQL = SUBSCRIPTION_STATUSES.filter(isSubscribed)
  .map((s) => `'${s}'`)
  .join(', ');
