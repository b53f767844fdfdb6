import { sql, type Kysely } from 'kysely';

/**
 * An agent's history (AgentMessageRepository.history) places each reply after its question by
 * joining `agent_mailbox.reply_message_id`; without an index that join read the whole mailbox
 * (every agent's rows) for each answer, and deleting a message (ON DELETE SET NULL) did too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX agent_mailbox_reply_idx ON agent_mailbox (reply_message_id) WHERE reply_message_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX agent_mailbox_reply_idx`.execute(db);
}
