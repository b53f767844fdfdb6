import { sql, type Kysely } from 'kysely';

/**
 * The number of an agent's messages, kept as they are stored and deleted (decision 0465): a page of
 * messages says `total`, which was a count(*) of all the agent's messages on every page read, its
 * cost growing with the history. A row per agent, written by triggers on agent_messages (a
 * SECURITY DEFINER function: the roles that store messages cannot write the counts themselves),
 * filled from the messages already stored; it goes with its agent.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE agent_message_counts (
    agent_id uuid PRIMARY KEY,
    user_id uuid NOT NULL,
    messages bigint NOT NULL CHECK (messages >= 0),
    FOREIGN KEY (agent_id, user_id) REFERENCES agents (id, user_id) ON DELETE CASCADE
  );
  ALTER TABLE agent_message_counts ENABLE ROW LEVEL SECURITY;
  GRANT SELECT ON agent_message_counts TO app_user, app_system;
  CREATE POLICY agent_message_counts_own ON agent_message_counts TO app_user USING (user_id = ${ME});
  CREATE POLICY agent_message_counts_system ON agent_message_counts TO app_system USING (true);

  CREATE FUNCTION agent_message_counts_track() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO agent_message_counts AS c (agent_id, user_id, messages) VALUES (NEW.agent_id, NEW.user_id, 1)
      ON CONFLICT (agent_id) DO UPDATE SET messages = c.messages + 1;
    ELSE
      -- an agent's removal deletes its count before or after its messages: either way nothing is left
      UPDATE agent_message_counts SET messages = greatest(0, messages - 1) WHERE agent_id = OLD.agent_id;
    END IF;
    RETURN NULL;
  END $fn$;
  REVOKE ALL ON FUNCTION agent_message_counts_track() FROM PUBLIC;
  CREATE TRIGGER agent_message_counts_track AFTER INSERT OR DELETE ON agent_messages
    FOR EACH ROW EXECUTE FUNCTION agent_message_counts_track();

  INSERT INTO agent_message_counts (agent_id, user_id, messages)
  SELECT agent_id, user_id, count(*) FROM agent_messages GROUP BY agent_id, user_id;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`DROP TRIGGER agent_message_counts_track ON agent_messages; DROP FUNCTION agent_message_counts_track(); DROP TABLE agent_message_counts;`)
    .execute(db);
}
