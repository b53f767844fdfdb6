import { sql, type Kysely } from 'kysely';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { SingleUseTokenRepository } from '../../../../application/ports/single-use-token-repository.port.js';
import type { Database } from './database.js';

/** consume() is one conditional UPDATE: two concurrent consumers cannot both win. */
export class KyselyEmailVerifications implements SingleUseTokenRepository<{ email: string }> {
  constructor(private readonly db: Kysely<Database>) {}

  async issue(tokenHash: Buffer, userId: UserId, expiresAt: Date, extra: { email: string }): Promise<void> {
    await this.db.insertInto('email_verifications').values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt, email: extra.email }).execute();
  }

  async consume(tokenHash: Buffer, now: Date) {
    const row = await this.db
      .updateTable('email_verifications')
      .set({ used_at: sql`now()` })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['user_id', 'email'])
      .executeTakeFirst();
    return row ? { userId: row.user_id as UserId, email: row.email } : null;
  }
}

export class KyselyPasswordResets implements SingleUseTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async issue(tokenHash: Buffer, userId: UserId, expiresAt: Date): Promise<void> {
    await this.db.insertInto('password_resets').values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt }).execute();
  }

  async consume(tokenHash: Buffer, now: Date) {
    const row = await this.db
      .updateTable('password_resets')
      .set({ used_at: sql`now()` })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row ? { userId: row.user_id as UserId } : null;
  }
}
