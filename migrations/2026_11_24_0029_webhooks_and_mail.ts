import { sql, type Kysely } from 'kysely';

/**
 * Issue 12: outbound webhooks, mail delivered from the outbox, and pruning.
 *
 * - webhook_endpoints / webhook_deliveries belong to no user: admins manage them and the worker
 *   delivers, both through the system unit of work. app_user gets nothing on either.
 * - A delivery is one (event, endpoint) pair, unique: however many relays run at once, the pair
 *   is inserted once, and only the relay that inserted it queues its job.
 * - The outbox becomes readable to app_system (the relay and the mail job), which also records
 *   attempts and prunes it; sessions, wallet nonces and daily usage get the deletes the pruning
 *   jobs need.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE outbox
    ADD COLUMN attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN last_error text;
  CREATE INDEX outbox_delivered_at_idx ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;
  CREATE INDEX outbox_created_at_idx ON outbox (created_at);

  CREATE TABLE webhook_endpoints (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    url text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
    event_types text[] NOT NULL CHECK (cardinality(event_types) > 0),
    description text CHECK (char_length(description) <= 500),
    -- the whsec_ secret, AES-256-GCM under key \`key_id\`; authenticated data binds the endpoint id
    key_id text NOT NULL,
    sealed_secret bytea NOT NULL,
    created_by uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    secret_rotated_at timestamptz
  );

  CREATE TABLE webhook_deliveries (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id bigint NOT NULL,
    event_type text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'retrying', 'delivered', 'dead')),
    attempts integer NOT NULL DEFAULT 0,
    last_status_code integer,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz,
    UNIQUE (endpoint_id, event_id)
  );
  CREATE INDEX webhook_deliveries_recent_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
  CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at);

  -- every attempt of a delivery, as the worker saw it
  CREATE TABLE webhook_delivery_attempts (
    delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt integer NOT NULL,
    status_code integer,
    error text,
    attempted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (delivery_id, attempt)
  );

  ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
  ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
  ALTER TABLE webhook_delivery_attempts ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_endpoints, webhook_deliveries TO app_system;
  GRANT SELECT, INSERT ON webhook_delivery_attempts TO app_system;
  CREATE POLICY webhook_delivery_attempts_system ON webhook_delivery_attempts TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY webhook_endpoints_system ON webhook_endpoints TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY webhook_deliveries_system ON webhook_deliveries TO app_system USING (true) WITH CHECK (true);

  GRANT SELECT, DELETE ON outbox TO app_system;
  GRANT UPDATE (delivered_at, attempts, last_error) ON outbox TO app_system;
  DROP POLICY outbox_system ON outbox;
  CREATE POLICY outbox_system ON outbox TO app_system USING (true) WITH CHECK (true);

  GRANT DELETE ON daily_usage TO app_system;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  REVOKE DELETE ON daily_usage FROM app_system;
  DROP POLICY outbox_system ON outbox;
  CREATE POLICY outbox_system ON outbox TO app_system WITH CHECK (true);
  REVOKE SELECT, DELETE, UPDATE ON outbox FROM app_system;
  DROP TABLE webhook_delivery_attempts, webhook_deliveries, webhook_endpoints;
  DROP INDEX outbox_delivered_at_idx;
  DROP INDEX outbox_created_at_idx;
  ALTER TABLE outbox DROP COLUMN attempts, DROP COLUMN last_error;
  `,
    )
    .execute(db);
}
