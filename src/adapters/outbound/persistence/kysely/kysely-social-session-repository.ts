import { sql, type Kysely } from 'kysely';
import { FidAlreadyLinkedError } from '../../../../application/identity/social-identity.errors.js';
import type { RefreshTokenUse, SocialSessionRepository } from '../../../../application/ports/social-session-repository.port.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import { isUniqueViolation } from '../pg-errors.js';
import type { Database } from './database.js';

/** useRefreshToken() is one conditional UPDATE: two concurrent uses of one token cannot both win. */
export class KyselySocialSessionRepository implements SocialSessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async userByFid(fid: number): Promise<UserId | null> {
    const row = await this.db.selectFrom('social_identities').select('user_id').where('fid', '=', String(fid)).executeTakeFirst();
    return row ? (row.user_id as UserId) : null;
  }

  async link(fid: number, userId: UserId): Promise<void> {
    try {
      await this.db.insertInto('social_identities').values({ fid: String(fid), user_id: userId }).execute();
    } catch (err) {
      if (isUniqueViolation(err, 'social_identities_pkey')) throw new FidAlreadyLinkedError();
      throw err;
    }
  }

  async openFamily(userId: UserId, sessionId: string): Promise<string> {
    const row = await this.db.insertInto('social_session_families').values({ user_id: userId, session_id: sessionId }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async issueRefreshToken(familyId: string, tokenHash: Buffer, expiresAt: Date): Promise<void> {
    await this.db.insertInto('social_refresh_tokens').values({ token_hash: tokenHash, family_id: familyId, expires_at: expiresAt }).execute();
  }

  async useRefreshToken(tokenHash: Buffer, now: Date): Promise<RefreshTokenUse> {
    const used = await this.db
      .updateTable('social_refresh_tokens as t')
      .from('social_session_families as f')
      .set({ used_at: now })
      .whereRef('f.id', '=', 't.family_id')
      .where('t.token_hash', '=', tokenHash)
      .where('t.used_at', 'is', null)
      .where('t.expires_at', '>', now)
      .where('f.revoked_at', 'is', null)
      .where('f.session_id', 'is not', null)
      .returning(['t.family_id', 'f.user_id', 'f.session_id'])
      .executeTakeFirst();
    if (used) return { kind: 'consumed', familyId: used.family_id, userId: used.user_id as UserId, sessionId: used.session_id! };
    // Not usable: a token already spent is reuse; anything else (unknown, expired, ended) is just invalid.
    const seen = await this.db.selectFrom('social_refresh_tokens').select(['family_id', 'used_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
    return seen?.used_at ? { kind: 'reused', familyId: seen.family_id } : { kind: 'invalid' };
  }

  async moveFamily(familyId: string, sessionId: string): Promise<void> {
    await this.db.updateTable('social_session_families').set({ session_id: sessionId }).where('id', '=', familyId).execute();
  }

  async revokeFamily(familyId: string, now: Date): Promise<string | null> {
    // The session it held is read under the row lock the UPDATE takes, before it is cleared.
    const row = await this.db
      .with('held', (db) => db.selectFrom('social_session_families').select(['id', 'session_id']).where('id', '=', familyId).forUpdate())
      .updateTable('social_session_families as f')
      .from('held')
      .set({ revoked_at: sql`coalesce(f.revoked_at, ${now})`, session_id: null })
      .whereRef('f.id', '=', 'held.id')
      .returning('held.session_id')
      .executeTakeFirst();
    return row?.session_id ?? null;
  }
}
