import type { Kysely } from 'kysely';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { SessionRecord, SessionRepository } from '../../../../application/ports/session-repository.port.js';
import type { Database } from './database.js';

export class KyselySessionRepository implements SessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(userId: UserId, tokenHash: Buffer, expiresAt: Date): Promise<SessionRecord> {
    const row = await this.db
      .insertInto('sessions')
      .values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt })
      .returning(['id', 'user_id', 'expires_at'])
      .executeTakeFirstOrThrow();
    return { id: row.id, userId: row.user_id as UserId, expiresAt: row.expires_at };
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }

  async deleteAllOf(userId: UserId, keep: string | null): Promise<string[]> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keep) q = q.where('id', '<>', keep);
    return (await q.returning('id').execute()).map((r) => r.id);
  }
}
