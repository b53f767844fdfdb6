import { sql, type Kysely } from 'kysely';

/**
 * Paid processor events that found no owner, kept so they can be attached later (when the
 * e-mail is verified, or when a later event names the owner or a customer now known) and so
 * admins can see them. `event` is the service's own normalized form of the event (what applying
 * it needs, no signature, no raw payload); the columns beside it are copies for lookups and lists.
 *
 * Only app_system touches it (webhook, e-mail verification, the admin list): app_user has no
 * grant at all.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE unmatched_payment_events (
    event_id text PRIMARY KEY,
    type text NOT NULL,
    email citext,
    customer_id text,
    subscription_id text,
    session_id text,
    catalog text,
    plan text,
    pack text,
    event jsonb NOT NULL,
    event_created_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    attached_at timestamptz,
    attached_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
    attached_via text CHECK (attached_via IN ('verified-email', 'later-event')),
    attached_by_event_id text,
    attached_outcome text,
    CHECK ((attached_at IS NULL) = (attached_via IS NULL))
  );
  CREATE INDEX unmatched_payment_events_pending_email_idx ON unmatched_payment_events (email) WHERE attached_at IS NULL;
  CREATE INDEX unmatched_payment_events_pending_customer_idx ON unmatched_payment_events (customer_id) WHERE attached_at IS NULL;
  CREATE INDEX unmatched_payment_events_received_idx ON unmatched_payment_events (received_at DESC, event_id);

  ALTER TABLE unmatched_payment_events ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, UPDATE ON unmatched_payment_events TO app_system;
  CREATE POLICY unmatched_payment_events_system ON unmatched_payment_events TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE unmatched_payment_events`.execute(db);
}
