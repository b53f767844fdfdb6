import { sql, type Kysely } from 'kysely';

/**
 * The model that answered, on each agent reply: the runtime reports it (a provider may fall back
 * from the agent's configured model), and the console shows it beside the reply. Null on user
 * messages and on replies stored before this column. The table's grants cover the new column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE agent_messages ADD COLUMN model text CHECK (char_length(model) <= 200)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE agent_messages DROP COLUMN model`.execute(db);
}
