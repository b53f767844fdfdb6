import type { HotReads } from '../../../application/ports/unit-of-work.port.js';
import { parsePurchasablePlan } from '../../../domain/billing/purchasable-plan.js';
import { isSubscriptionStatus } from '../../../domain/billing/subscription.js';
import { subscriptionFromText } from './kysely/subscription-text.js';
import { toUser, USER_COLUMNS } from './kysely/user-row.js';
import { SUBSCRIBED_STATUSES_SQL } from './sql-literals.js';


/**
 * Each hot read: the PL/pgSQL function that sets the identity and runs it (migration
 * 2026_11_24_0007, called as one named prepared statement), the read's own SQL with the acting
 * user's id as `$1` (the function's body, and the benchmarks' baseline), and the mapper of its
 * rows, shared with the repositories.
 */
export const HOT_READS: { [K in keyof HotReads]: { fn: string; sql: string; map: (rows: any[]) => HotReads[K] } } = {
  profile: {
    fn: 'hot_profile',
    // The user's subscribed plans ride along as a subquery of the same statement: still one message.
    // An array of 'status:catalog:plan' text is the cheapest shape to plan and build (json_agg of
    // objects costs about a third more per read), and every part is a constrained identifier.
    sql: `SELECT ${USER_COLUMNS.join(', ')},
              ARRAY(SELECT s.status || ':' || s.catalog || ':' || s.plan FROM subscriptions s
                     WHERE s.user_id = users.id AND s.plan IS NOT NULL AND s.status IN (${SUBSCRIBED_STATUSES_SQL})) AS subscriptions
         FROM users WHERE id = $1`,
    map: (rows) => (rows[0] ? { ...toUser(rows[0]), subscriptions: (rows[0].subscriptions as string[]).flatMap(subscriptionFromText) } : null),
  },
  chatAccess: {
    fn: 'hot_chat_access',
    // Subscriptions and BYOK providers as rows of one statement; RLS keeps both to the user's own.
    sql: `SELECT 's' AS kind, processor_subscription_id AS id, status, catalog, plan FROM subscriptions WHERE user_id = $1
       UNION ALL SELECT 'k', provider, NULL, NULL, NULL FROM byok_keys WHERE user_id = $1`,
    map: (rows) => ({
      subscriptions: rows.flatMap((r) =>
        r.kind === 's' && isSubscriptionStatus(r.status) ? [{ processorId: r.id as string, status: r.status, plan: parsePurchasablePlan(r.plan, r.catalog) ?? null }] : [],
      ),
      byokProviders: rows.filter((r) => r.kind === 'k').map((r) => r.id as string),
    }),
  },
};
