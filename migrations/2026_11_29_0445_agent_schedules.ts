import { sql, type Kysely } from 'kysely';

/**
 * Scheduled runs of agents (CONTRACT.md "scheduled runs"; decision 0445): an owner's cron (five
 * fields, a timezone) that sends `content` to one agent as a message on channel `schedule` at each
 * tick. `next_run_at` is the next tick still to run; the run that sends a tick moves it in the same
 * transaction that stores the message (decision 0446), and `agent_schedule_runs` keeps one row per
 * tick that was run, sent or skipped (its primary key is the schedule and the tick: a tick run
 * twice cannot commit twice, whatever the code does). A schedule belongs to its agent: removing
 * the agent removes its schedules and their runs (ON DELETE CASCADE, run as the tables' owner).
 *
 * Grants are the narrowest that work:
 * - app_user reads, creates and deletes its own schedules, moves only `next_run_at` (the tick's
 *   claim), and reads, appends and prunes its own schedules' runs.
 * - app_system only finds what is due: `id`, `user_id` and `next_run_at`.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE agent_schedules (
    id uuid PRIMARY KEY,
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    cron text NOT NULL CHECK (char_length(cron) BETWEEN 1 AND 200),
    timezone text NOT NULL CHECK (char_length(timezone) BETWEEN 1 AND 64),
    content text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 32000),
    next_run_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  CREATE INDEX agent_schedules_due_idx ON agent_schedules (next_run_at);
  CREATE INDEX agent_schedules_agent_idx ON agent_schedules (agent_id, created_at);

  CREATE TABLE agent_schedule_runs (
    schedule_id uuid NOT NULL REFERENCES agent_schedules (id) ON DELETE CASCADE,
    -- the tick this run was for (the schedule's next_run_at when it was claimed)
    due_at timestamptz NOT NULL,
    user_id uuid NOT NULL,
    outcome text NOT NULL CHECK (outcome IN ('sent', 'skipped')),
    -- why a tick was skipped (the agent was not running, or the tick came too late)
    reason text CHECK (char_length(reason) <= 200),
    -- the message it sent (no foreign key: the history's retention may remove the message first)
    message_id uuid,
    ran_at timestamptz NOT NULL,
    PRIMARY KEY (schedule_id, due_at),
    CHECK ((outcome = 'sent') = (message_id IS NOT NULL))
  );

  ALTER TABLE agent_schedules ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, DELETE ON agent_schedules TO app_user;
  GRANT UPDATE (next_run_at) ON agent_schedules TO app_user;
  CREATE POLICY agent_schedules_own ON agent_schedules TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  GRANT SELECT (id, user_id, next_run_at) ON agent_schedules TO app_system;
  CREATE POLICY agent_schedules_system ON agent_schedules FOR SELECT TO app_system USING (true);

  ALTER TABLE agent_schedule_runs ENABLE ROW LEVEL SECURITY;
  GRANT SELECT, INSERT, DELETE ON agent_schedule_runs TO app_user;
  CREATE POLICY agent_schedule_runs_own ON agent_schedule_runs TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TABLE agent_schedule_runs; DROP TABLE agent_schedules;`).execute(db);
}
