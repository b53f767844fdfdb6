import { sql, type Kysely } from 'kysely';

/**
 * Of a day's used units, how many were paid with credits when they were reserved (the rest were
 * taken from the plan's daily allowance). Settling and releasing give units back against this
 * stored split, never against the allowance of the plan in force at close: a plan that lapses
 * while a call is open refunds no credit that was never charged, and an upgrade mid-call burns
 * none. Stored as the credit-paid part, so a row written with `used_units` alone reads as allowance.
 *
 * Existing rows take the split the plan in force now gives (the subscribed plans' daily units as
 * of this migration; admins' extra units are not known here, so their rows may start with more
 * credit-paid units than they paid for, which a release of a call open across the deploy can refund).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE daily_usage ADD COLUMN credit_units integer NOT NULL DEFAULT 0;
  UPDATE daily_usage d SET credit_units = greatest(0, d.used_units - coalesce((
    SELECT max(p.daily_units) FROM subscriptions s
      JOIN (VALUES ('checkout', 'label', 600), ('checkout', 'solo', 1000), ('checkout', 'collective', 2500),
                   ('checkout', 'network', 10000), ('billing', 'starter', 600), ('billing', 'pro', 1000),
                   ('billing', 'scale', 2500)) AS p (catalog, plan, daily_units)
        ON p.catalog = s.catalog AND p.plan = s.plan
     WHERE s.user_id = d.user_id AND s.status IN ('active', 'trialing')), 0));
  ALTER TABLE daily_usage ADD CONSTRAINT daily_usage_credit_units_within_used CHECK (credit_units BETWEEN 0 AND used_units);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE daily_usage DROP COLUMN credit_units`.execute(db);
}
