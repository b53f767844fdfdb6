import { sql, type Kysely } from 'kysely';

/**
 * Metrics (issue 12 item 1): what the metrics endpoints read that no other table records.
 * - instance_samples: each running instance's cpu and memory, sampled every minute by a worker
 *   job through the instance command path; pruned after 31 days.
 * - request_timings: per-minute, per-route aggregates of the HTTP requests, flushed in batches by
 *   each api process (one upsert per route and minute, never one row per request).
 * - platform_ticks: one row per minute in which the sampling job ran, i.e. the service and its
 *   database were up; platform uptime is the share of minutes that have one.
 *
 * Grants: app_user reads its own instance's samples (RLS); app_system writes and prunes all three
 * and reads them. Nobody else touches them.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE instance_samples (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sampled_at timestamptz NOT NULL,
    cpu_percent double precision NOT NULL CHECK (cpu_percent >= 0),
    memory_percent double precision NOT NULL CHECK (memory_percent >= 0),
    rss_bytes bigint NOT NULL CHECK (rss_bytes >= 0),
    PRIMARY KEY (user_id, sampled_at)
  );
  CREATE INDEX instance_samples_at_idx ON instance_samples (sampled_at);

  CREATE TABLE request_timings (
    minute timestamptz NOT NULL,
    route text NOT NULL CHECK (char_length(route) BETWEEN 1 AND 300),
    status_class smallint NOT NULL CHECK (status_class BETWEEN 1 AND 5),
    count integer NOT NULL CHECK (count >= 0),
    total_ms double precision NOT NULL CHECK (total_ms >= 0),
    PRIMARY KEY (minute, route, status_class)
  );

  CREATE TABLE platform_ticks (
    minute timestamptz PRIMARY KEY
  );

  -- the platform figures count messages since a UTC day, week or month, and events by kind
  CREATE INDEX agent_messages_created_idx ON agent_messages (created_at);
  CREATE INDEX agent_events_kind_idx ON agent_events (kind, at);

  ALTER TABLE instance_samples ENABLE ROW LEVEL SECURITY;
  ALTER TABLE request_timings ENABLE ROW LEVEL SECURITY;
  ALTER TABLE platform_ticks ENABLE ROW LEVEL SECURITY;

  GRANT SELECT ON instance_samples TO app_user;
  CREATE POLICY instance_samples_own ON instance_samples FOR SELECT TO app_user USING (user_id = ${ME});

  GRANT SELECT, INSERT, DELETE ON instance_samples TO app_system;
  GRANT SELECT, INSERT, UPDATE, DELETE ON request_timings TO app_system;
  GRANT SELECT, INSERT, DELETE ON platform_ticks TO app_system;
  CREATE POLICY instance_samples_system ON instance_samples TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY request_timings_system ON request_timings TO app_system USING (true) WITH CHECK (true);
  CREATE POLICY platform_ticks_system ON platform_ticks TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX agent_events_kind_idx; DROP INDEX agent_messages_created_idx; DROP TABLE platform_ticks, request_timings, instance_samples`.execute(db);
}
