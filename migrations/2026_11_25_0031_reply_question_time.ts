import { sql, type Kysely } from 'kysely';

/**
 * An agent's reply remembers when its question was stored (`question_at`), so the conversation
 * order (a reply right after its question) is read from the row itself. Before, the history read
 * found each reply's question through the mailbox in a correlated subquery on every answer, and a
 * plan cached while the tables were small could scan all messages once per reply (issue 8's chat
 * benchmark: 2.3 ms instead of 0.3 ms). NULL for user messages and for replies stored without a
 * mailbox row: they sort by their own time, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  ALTER TABLE agent_messages ADD COLUMN question_at timestamptz;
  UPDATE agent_messages m SET question_at = q.created_at
    FROM agent_mailbox b JOIN agent_messages q ON q.id = b.message_id
   WHERE b.reply_message_id = m.id;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE agent_messages DROP COLUMN question_at`.execute(db);
}
