import { sql, type Kysely } from 'kysely';

/**
 * Of a day's used units, how many were taken from the plan's daily allowance when they were
 * reserved (the rest were paid with credits, in blocks of 100). Settling and releasing give units
 * back against this stored split, never against the allowance of the plan in force at close: a
 * plan that lapses while a call is open refunds no credit that was never charged, and an upgrade
 * mid-call burns none.
 *
 * Existing rows take the split the plan in force now gives (the subscribed plans' daily units as
 * of this migration; admins' extra units are not known here, so their rows start with less
 * allowance and a release of a call open across the deploy may refund them up to its credit blocks).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE daily_usage ADD COLUMN allowance_units integer NOT NULL DEFAULT 0;
  UPDATE daily_usage d SET allowance_units = least(d.used_units, coalesce((
    SELECT max(p.daily_units) FROM subscriptions s
      JOIN (VALUES ('checkout', 'label', 600), ('checkout', 'solo', 1000), ('checkout', 'collective', 2500),
                   ('checkout', 'network', 10000), ('billing', 'starter', 600), ('billing', 'pro', 1000),
                   ('billing', 'scale', 2500)) AS p (catalog, plan, daily_units)
        ON p.catalog = s.catalog AND p.plan = s.plan
     WHERE s.user_id = d.user_id AND s.status IN ('active', 'trialing')), 0));
  ALTER TABLE daily_usage ADD CONSTRAINT daily_usage_allowance_within_used CHECK (allowance_units BETWEEN 0 AND used_units);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE daily_usage DROP COLUMN allowance_units`.execute(db);
}
