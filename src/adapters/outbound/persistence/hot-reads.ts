import type { HotReads } from '../../../application/ports/unit-of-work.port.js';
import type { UserId } from '../../../domain/shared/ids.js';
import { parsePurchasablePlan } from '../../../domain/billing/purchasable-plan.js';
import { isSubscriptionStatus } from '../../../domain/billing/subscription.js';
import { subscriptionFromText } from './kysely/subscription-text.js';
import { USER_COLUMNS } from './kysely/user-row.js';
import type { TextRow } from './positional-query.js';
import { SUBSCRIBED_STATUSES_SQL } from './sql-literals.js';

/**
 * The identity step of every hot read: set as local to the implicit transaction, so it ends with
 * the read (positional-query.ts runs both in one round trip and one transaction).
 */
export const HOT_IDENTITY = { name: 'hot_identity', text: `SELECT set_config('app.user_id', $1, true)` } as const;

/**
 * Each hot read: its name as a prepared statement, its SQL as `app_user` under row-level security
 * with the acting user's id as `$1` (also the benchmarks' baseline, run as the owner), the columns
 * the call takes from it, in order, and the mapper of those columns' text by position.
 */
export const HOT_READS: { [K in keyof HotReads]: { name: string; sql: string; columns: string; map: (rows: TextRow[]) => HotReads[K] } } = {
  profile: {
    name: 'hot_profile',
    // The user's subscribed plans ride along as a subquery of the same statement: still one message.
    // An array of 'status:catalog:plan' text is the cheapest shape to plan and build (json_agg of
    // objects costs about a third more per read), and every part is a constrained identifier.
    sql: `SELECT ${USER_COLUMNS.join(', ')},
              ARRAY(SELECT s.status || ':' || s.catalog || ':' || s.plan FROM public.subscriptions s
                     WHERE s.user_id = users.id AND s.plan IS NOT NULL AND s.status IN (${SUBSCRIBED_STATUSES_SQL})) AS subscriptions
         FROM public.users WHERE id = $1`,
    // Text that needs no parser: the array joined by commas (its parts are constrained
    // identifiers, never a comma). No timestamps: no caller of the profile shows them, and
    // formatting two of them was about a tenth of the read's cost in PostgreSQL.
    columns: `id, email, name, email_verified_at IS NOT NULL, credits, referral_code, notifications, two_factor_enabled,
              array_to_string(subscriptions, ',')`,
    map: (rows) => {
      if (!rows[0]) return null;
      const [id, email, name, verified, credits, referralCode, notifications, twoFactor, subscriptions] = rows[0];
      return {
        id: id as UserId,
        email: email!,
        name: name!,
        emailVerified: verified === 't',
        credits: Number(credits),
        referralCode: referralCode!,
        notifications: notifications ? (JSON.parse(notifications) as Record<string, boolean>) : {},
        twoFactorEnabled: twoFactor === 't',
        subscriptions: subscriptions ? subscriptions.split(',').flatMap((t) => subscriptionFromText(t)) : [],
      };
    },
  },
  chatAccess: {
    name: 'hot_chat_access',
    // Subscriptions and BYOK providers as rows of one statement; RLS keeps both to the user's own.
    sql: `SELECT 's' AS kind, processor_subscription_id AS id, status, catalog, plan FROM public.subscriptions WHERE user_id = $1
       UNION ALL SELECT 'k', provider, NULL, NULL, NULL FROM public.byok_keys WHERE user_id = $1`,
    columns: 'kind, id, status, catalog, plan',
    map: (rows) => {
      const subscriptions: HotReads['chatAccess']['subscriptions'] = [];
      const byokProviders: string[] = [];
      for (const [kind, id, status, catalog, plan] of rows) {
        if (kind === 'k') byokProviders.push(id!);
        else if (isSubscriptionStatus(status)) subscriptions.push({ processorId: id!, status, plan: parsePurchasablePlan(plan ?? null, catalog ?? null) ?? null });
      }
      return { subscriptions, byokProviders };
    },
  },
};
