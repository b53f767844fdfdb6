import { sql, type Kysely } from 'kysely';
import { up as createHotReadFunctions } from './2026_11_24_0007_hot_read_functions.js';

/**
 * The hot reads no longer call PL/pgSQL functions: each is now the identity statement and the read,
 * two prepared statements in one round trip and one implicit transaction, which costs the server
 * about half as much per read (docs/decisions/0360-hot-reads-as-positional-text.md). The hot write
 * functions (2026_11_25_0032) stay.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION hot_chat_access(uuid), hot_profile(uuid)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await createHotReadFunctions(db);
}
