import { sql, type Kysely } from 'kysely';

/**
 * The agents' mailbox (CONTRACT.md section 7 "talking to an agent"): every user message waiting
 * for, or given, an answer. One row per user message, in arrival order (`seq`); a worker that runs
 * the user's runtime claims the oldest queued message of an agent that has none `working`, answers
 * it, and closes the row. At most one `working` row per agent (a unique partial index: the
 * per-agent guard holds across processes, whatever the code does).
 *
 * Triggers announce changes with NOTIFY `agent_mailbox` (JSON): `{kind: "queued", userId, agentId}`
 * on insert (workers wake), `{kind: "finished", messageId, agentId, userId}` when a row is
 * answered or failed (the api process waiting for that answer wakes). NOTIFY is delivered at
 * commit, so a listener never sees a row that is not there yet. Every stored agent message,
 * whatever its channel, is announced too: `{kind: "stored", messageId, agentId, userId}` (the
 * agent's websocket pushes it from whichever api process holds the socket), and so is every
 * status move of an agent: `{kind: "status", agentId, userId, status}`.
 *
 * Grants: app_user inserts its own rows, only as `queued`, and reads its own (the outcome of its
 * message); app_system (the worker) reads all and changes only the state columns.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE agent_mailbox (
    message_id uuid PRIMARY KEY REFERENCES agent_messages (id) ON DELETE CASCADE,
    agent_id uuid NOT NULL,
    user_id uuid NOT NULL,
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'working', 'answered', 'failed')),
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    reply_message_id uuid REFERENCES agent_messages (id) ON DELETE SET NULL,
    error_code text,
    error text,
    queued_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    finished_at timestamptz,
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  -- the next message of each agent, and the users with work waiting
  CREATE INDEX agent_mailbox_queued_idx ON agent_mailbox (agent_id, seq) WHERE status = 'queued';
  CREATE INDEX agent_mailbox_queued_user_idx ON agent_mailbox (user_id, seq) WHERE status = 'queued';
  -- the per-agent guard: one answer at a time
  CREATE UNIQUE INDEX agent_mailbox_one_working_idx ON agent_mailbox (agent_id) WHERE status = 'working';

  CREATE FUNCTION agent_mailbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      PERFORM pg_notify('agent_mailbox', json_build_object('kind', 'queued', 'userId', NEW.user_id, 'agentId', NEW.agent_id)::text);
    ELSIF NEW.status IN ('answered', 'failed') AND OLD.status IS DISTINCT FROM NEW.status THEN
      PERFORM pg_notify('agent_mailbox', json_build_object('kind', 'finished', 'messageId', NEW.message_id, 'agentId', NEW.agent_id, 'userId', NEW.user_id)::text);
    ELSIF NEW.status = 'queued' AND OLD.status IS DISTINCT FROM NEW.status THEN
      PERFORM pg_notify('agent_mailbox', json_build_object('kind', 'queued', 'userId', NEW.user_id, 'agentId', NEW.agent_id)::text);
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER agent_mailbox_notify AFTER INSERT OR UPDATE OF status ON agent_mailbox
    FOR EACH ROW EXECUTE FUNCTION agent_mailbox_notify();

  CREATE FUNCTION agent_messages_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('agent_mailbox', json_build_object('kind', 'stored', 'messageId', NEW.id, 'agentId', NEW.agent_id, 'userId', NEW.user_id)::text);
    RETURN NULL;
  END $$;
  CREATE TRIGGER agent_messages_notify AFTER INSERT ON agent_messages FOR EACH ROW EXECUTE FUNCTION agent_messages_notify();

  CREATE FUNCTION agents_status_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status THEN
      PERFORM pg_notify('agent_mailbox', json_build_object('kind', 'status', 'agentId', NEW.id, 'userId', NEW.user_id, 'status', NEW.status)::text);
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER agents_status_notify AFTER UPDATE OF status ON agents FOR EACH ROW EXECUTE FUNCTION agents_status_notify();

  ALTER TABLE agent_mailbox ENABLE ROW LEVEL SECURITY;
  GRANT SELECT ON agent_mailbox TO app_user;
  GRANT INSERT (message_id, agent_id, user_id) ON agent_mailbox TO app_user;
  CREATE POLICY agent_mailbox_own_select ON agent_mailbox FOR SELECT TO app_user USING (user_id = ${ME});
  CREATE POLICY agent_mailbox_own_insert ON agent_mailbox FOR INSERT TO app_user WITH CHECK (user_id = ${ME} AND status = 'queued');

  GRANT SELECT ON agent_mailbox TO app_system;
  GRANT UPDATE (status, attempts, reply_message_id, error_code, error, started_at, finished_at) ON agent_mailbox TO app_system;
  CREATE POLICY agent_mailbox_system ON agent_mailbox TO app_system USING (true) WITH CHECK (true);
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER agents_status_notify ON agents; DROP FUNCTION agents_status_notify();
    DROP TRIGGER agent_messages_notify ON agent_messages; DROP FUNCTION agent_messages_notify(); DROP TABLE agent_mailbox; DROP FUNCTION agent_mailbox_notify()`.execute(db);
}
