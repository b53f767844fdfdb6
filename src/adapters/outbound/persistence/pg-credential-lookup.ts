import type pg from 'pg';
import { isUuid, type UserId } from '../../../domain/shared/ids.js';
import type { CredentialLookup, LiveApiKey, LiveSession } from '../../../application/ports/credential-lookup.port.js';
import { DatabaseUnavailableError, isConnectionError } from './pg-errors.js';

/**
 * Authentication's hot lookups on the system pool: named prepared statements (parsed once per
 * connection), one round trip each, no transaction around a single read.
 */
export class PgCredentialLookup implements CredentialLookup {
  constructor(private readonly system: pg.Pool) {}

  async sessionByTokenHash(tokenHash: Buffer): Promise<LiveSession | null> {
    return this.session('auth_session_by_hash', 's.token_hash = $1', tokenHash);
  }

  async sessionById(id: string): Promise<LiveSession | null> {
    return isUuid(id) ? this.session('auth_session_by_id', 's.id = $1', id) : null;
  }

  async apiKeyByLookupId(lookupId: string): Promise<LiveApiKey | null> {
    return this.key('auth_key_by_lookup', 'k.lookup_id = $1', lookupId);
  }

  async apiKeyById(id: string): Promise<LiveApiKey | null> {
    return isUuid(id) ? this.key('auth_key_by_id', 'k.id = $1', id) : null;
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    await this.query(
      'auth_key_touch',
      "UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - interval '1 minute')",
      [id, at],
    );
  }

  private async session(name: string, where: string, value: unknown): Promise<LiveSession | null> {
    const r = await this.query(
      name,
      `SELECT s.id, s.user_id, s.expires_at, u.email, u.email_verified_at IS NOT NULL AS email_verified FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE ${where} AND s.expires_at > now()`,
      [value],
    );
    const row = r.rows[0];
    return row ? { sessionId: row.id, userId: row.user_id as UserId, email: row.email, emailVerified: row.email_verified, expiresAt: row.expires_at } : null;
  }

  private async key(name: string, where: string, value: unknown): Promise<LiveApiKey | null> {
    const r = await this.query(
      name,
      `SELECT k.id, k.user_id, k.key_hash, k.daily_units, k.models, k.expires_at, k.rate_limit, u.email, u.email_verified_at IS NOT NULL AS email_verified
         FROM api_keys k JOIN users u ON u.id = k.user_id WHERE ${where} AND (k.expires_at IS NULL OR k.expires_at > now())`,
      [value],
    );
    const row = r.rows[0];
    if (!row) return null;
    const limits = { dailyUnits: row.daily_units, models: row.models, expiresAt: row.expires_at, rateLimit: row.rate_limit };
    return { keyId: row.id, userId: row.user_id as UserId, email: row.email, emailVerified: row.email_verified, keyHash: row.key_hash, limits };
  }

  private async query(name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.system.query({ name, text, values });
    } catch (err) {
      throw isConnectionError(err) ? new DatabaseUnavailableError(err) : err;
    }
  }
}
