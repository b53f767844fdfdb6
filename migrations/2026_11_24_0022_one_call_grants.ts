import { sql, type Kysely } from 'kysely';

/**
 * One gateway call bought through a one-off processor checkout (issue 10 item 4): a row is
 * created `pending` when the checkout opens, becomes `paid` when the processor confirms it, and
 * `consumed` when the gateway serves the call (or `paid` again when the plugin failed after it).
 *
 * Grants are the narrowest that work, and the policies hold the state machine for app_user:
 * - app_user reads its own grants, inserts only its own `pending` ones, and may only move its own
 *   `paid` grant to `consumed`: it can never mark a grant paid.
 * - app_system (webhook, development completion, the gateway's restore) reads and updates the
 *   status columns; it never inserts or deletes.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE one_call_grants (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    plugin text NOT NULL CHECK (plugin IN ('agent', 'generate-text', 'tts', 'stt')),
    -- the processor's checkout session: its completion event names it
    session_id text NOT NULL UNIQUE CHECK (char_length(session_id) BETWEEN 1 AND 255),
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'consumed')),
    paid_event_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    paid_at timestamptz,
    consumed_at timestamptz,
    CHECK ((status = 'pending') = (paid_at IS NULL)),
    CHECK ((status = 'consumed') = (consumed_at IS NOT NULL))
  );
  CREATE INDEX one_call_grants_user_idx ON one_call_grants (user_id, created_at);
  -- the gateway's lookup: a user's usable calls of one plugin, oldest paid first
  CREATE INDEX one_call_grants_usable_idx ON one_call_grants (user_id, plugin, paid_at) WHERE status = 'paid';

  ALTER TABLE one_call_grants ENABLE ROW LEVEL SECURITY;

  GRANT SELECT ON one_call_grants TO app_user;
  GRANT INSERT (id, user_id, plugin, session_id) ON one_call_grants TO app_user;
  GRANT UPDATE (status, consumed_at) ON one_call_grants TO app_user;
  CREATE POLICY one_call_grants_own_read ON one_call_grants FOR SELECT TO app_user USING (user_id = ${ME});
  CREATE POLICY one_call_grants_own_open ON one_call_grants FOR INSERT TO app_user WITH CHECK (user_id = ${ME} AND status = 'pending');
  CREATE POLICY one_call_grants_own_take ON one_call_grants FOR UPDATE TO app_user
    USING (user_id = ${ME} AND status = 'paid') WITH CHECK (user_id = ${ME} AND status = 'consumed');

  GRANT SELECT ON one_call_grants TO app_system;
  GRANT UPDATE (status, paid_event_id, paid_at, consumed_at) ON one_call_grants TO app_system;
  CREATE POLICY one_call_grants_system ON one_call_grants TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE one_call_grants`.execute(db);
}
