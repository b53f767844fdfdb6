import { sql, type Kysely } from 'kysely';
import type { OAuthProvider } from '../../../../domain/accounts/oauth.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { EmailClaim, OAuthFlowRepository, OAuthIdentityRepository } from '../../../../application/ports/oauth-repositories.port.js';
import type { Database } from './database.js';

/** consume() is one conditional UPDATE: two concurrent callbacks with one state cannot both win. */
export class KyselyOAuthFlowRepository implements OAuthFlowRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(f: { stateHash: Buffer; provider: OAuthProvider; codeVerifier: string; nonce: string | null; expiresAt: Date }): Promise<void> {
    await this.db
      .insertInto('oauth_flows')
      .values({ state_hash: f.stateHash, provider: f.provider, code_verifier: f.codeVerifier, nonce: f.nonce, expires_at: f.expiresAt })
      .execute();
    // Spent and stale flows are worthless: each new flow sweeps a few so the table stays small.
    await sql`DELETE FROM oauth_flows WHERE state_hash IN (
      SELECT state_hash FROM oauth_flows WHERE expires_at < now() - interval '1 hour' LIMIT 50)`.execute(this.db);
  }

  async consume(stateHash: Buffer, provider: OAuthProvider, now: Date) {
    const row = await this.db
      .updateTable('oauth_flows')
      .set({ used_at: sql`now()` })
      .where('state_hash', '=', stateHash)
      .where('provider', '=', provider)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['code_verifier', 'nonce'])
      .executeTakeFirst();
    return row ? { codeVerifier: row.code_verifier, nonce: row.nonce } : null;
  }
}

export class KyselyOAuthIdentityRepository implements OAuthIdentityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findUserId(provider: OAuthProvider, subject: string): Promise<UserId | null> {
    const row = await this.db
      .selectFrom('oauth_identities')
      .select('user_id')
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return (row?.user_id as UserId | undefined) ?? null;
  }

  async link(provider: OAuthProvider, subject: string, userId: UserId, claim: EmailClaim): Promise<UserId> {
    const inserted = await this.db
      .insertInto('oauth_identities')
      .values({ provider, subject, user_id: userId, email: claim.email, email_verified: claim.verified })
      .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return (inserted?.user_id as UserId | undefined) ?? (await this.findUserId(provider, subject)) ?? userId;
  }

  async touch(provider: OAuthProvider, subject: string, claim: EmailClaim): Promise<void> {
    await this.db
      .updateTable('oauth_identities')
      .set({ email: claim.email, email_verified: claim.verified, last_sign_in_at: sql`now()` })
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .execute();
  }

  async unlinkUnverified(userId: UserId): Promise<number> {
    const r = await this.db.deleteFrom('oauth_identities').where('user_id', '=', userId).where('email_verified', '=', false).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
