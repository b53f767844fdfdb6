import type { HotReads } from '../../../application/ports/unit-of-work.port.js';
import { parsePurchasablePlan } from '../../../domain/billing/purchasable-plan.js';
import { isSubscribed, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../domain/billing/subscription.js';
import { toUser, USER_COLUMNS } from './kysely/user-row.js';

const SUBSCRIBED = SUBSCRIPTION_STATUSES.filter(isSubscribed).map((s) => `'${s}'`).join(', ');

/**
 * The fixed SQL of each one-message read. `sql` receives only an already validated uuid; no other
 * value is ever pasted. Rows come back through the same mappers the repositories use.
 */
export const HOT_READS: { [K in keyof HotReads]: { sql: (userId: string) => string; map: (rows: any[]) => HotReads[K] } } = {
  profile: {
    // The user's subscribed plans ride along as a subquery of the same statement: still one message.
    sql: (userId) =>
      `SELECT ${USER_COLUMNS.join(', ')},
              (SELECT coalesce(json_agg(json_build_object('status', s.status, 'catalog', s.catalog, 'plan', s.plan)), '[]'::json)
                 FROM subscriptions s WHERE s.user_id = users.id AND s.plan IS NOT NULL AND s.status IN (${SUBSCRIBED})) AS subscriptions
         FROM users WHERE id = '${userId}'`,
    map: (rows) =>
      rows[0]
        ? {
            ...toUser(rows[0]),
            subscriptions: (rows[0].subscriptions as { status: SubscriptionStatus; catalog: string; plan: string }[]).map((s) => ({
              status: s.status,
              plan: parsePurchasablePlan(s.plan, s.catalog) ?? null,
            })),
          }
        : null,
  },
};
