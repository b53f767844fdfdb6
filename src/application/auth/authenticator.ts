import { LRUCache } from 'lru-cache';
import { inject, injectable } from 'tsyringe';
import { roleFor } from '../../domain/accounts/account-rules.js';
import { keyExpired } from '../../domain/accounts/api-key-limits.js';
import { CREDENTIAL_LOOKUP, type CredentialLookup, type LiveApiKey, type LiveSession } from '../ports/credential-lookup.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { SECRET_HASHER, type SecretHasher } from '../ports/secret-hasher.port.js';
import { TOKEN_SIGNER, type AccessClaims, type TokenSigner } from '../ports/token-signer.port.js';
import { sha256Hex } from '../shared/secret-tokens.js';
import { parseSid, type Actor, type CredentialOrigin } from './actor.js';
import { parseApiKey } from './api-key-format.js';
import { TokenInvalidError } from './auth.errors.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { CredentialCache } from './credential-cache.js';

const LAST_USED_EVERY_MS = 60_000;

/** The account a live session or key belongs to, as read with it. */
type Owner = Pick<LiveSession, 'userId' | 'email' | 'emailVerified'>;

/**
 * Turns a presented credential into an Actor (CONTRACT.md section 4). The hot path pays no slow
 * hash and at most one indexed lookup every 10 seconds per credential; a credential in steady use
 * is read again in the background late in them (CredentialCache.refreshAhead), so its requests
 * do not wait for that lookup.
 */
@injectable()
export class Authenticator {
  /**
   * The caches below are made on first use: an LRUCache allocates its arrays for `max` entries when
   * made (a few megabytes each), which a start need not pay for before anyone presents a credential.
   */
  private made: {
    provenKeys?: LRUCache<string, { keyId: string; keyHash: string }>;
    verifiedJwts?: LRUCache<string, AccessClaims & { exp: number }>;
    lastTouched?: LRUCache<string, number>;
  } = {};
  /** bcrypt checks under way, so a burst of one new key costs one bcrypt, not one each. */
  private readonly pendingProofs = new Map<string, Promise<boolean>>();

  constructor(
    @inject(CREDENTIAL_LOOKUP) private readonly lookup: CredentialLookup,
    @inject(SECRET_HASHER) private readonly secrets: SecretHasher,
    @inject(TOKEN_SIGNER) private readonly tokens: TokenSigner,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    @inject(CredentialCache) readonly cache: CredentialCache,
  ) {}

  /** sha256(key) → the stored bcrypt hash it was proven against, and its key id. */
  private get provenKeys(): LRUCache<string, { keyId: string; keyHash: string }> {
    return (this.made.provenKeys ??= new LRUCache({ max: 50_000 }));
  }

  /** Verified JWTs until their expiry; their sid is still checked on each use. */
  private get verifiedJwts(): LRUCache<string, AccessClaims & { exp: number }> {
    return (this.made.verifiedJwts ??= new LRUCache({ max: 50_000, ttlAutopurge: false }));
  }

  private get lastTouched(): LRUCache<string, number> {
    return (this.made.lastTouched ??= new LRUCache({ max: 50_000 }));
  }

  /** The session's actor, or null when the cookie names no live session. */
  async fromSessionToken(token: string): Promise<Actor | null> {
    const key = sha256Hex(token);
    let session = this.cache.sessionsByToken.get(key);
    if (!session) {
      const found = await this.lookup.sessionByTokenHash(Buffer.from(key, 'hex'));
      if (!found) return null;
      session = found;
      this.cache.sessionsByToken.set(key, session);
    } else this.refreshSession(key);
    return this.sessionActor(session);
  }

  /** A cached session in use is read again in the background late in its time (CredentialCache.refreshAhead). */
  private refreshSession(key: string): void {
    this.cache.refreshAhead(this.cache.sessionsByToken, key, () => this.lookup.sessionByTokenHash(Buffer.from(key, 'hex')));
  }

  /**
   * fromSessionToken's answer when this process read the session within the cache's time, without
   * a promise (every signed-in request asks); undefined when only a lookup can tell.
   */
  knownSessionActor(token: string): Actor | null | undefined {
    const key = sha256Hex(token);
    const session = this.cache.sessionsByToken.get(key);
    if (!session) return undefined;
    this.refreshSession(key);
    return this.sessionActor(session);
  }

  private sessionActor(session: LiveSession): Actor | null {
    if (session.expiresAt.getTime() <= this.clock.now().getTime()) return null;
    return this.actor(session, { kind: 'session', sessionId: session.sessionId });
  }

  /** Throws TokenInvalidError for a malformed, unknown, wrong, expired or deleted key. */
  async fromApiKey(presented: string): Promise<Actor> {
    const lookupId = parseApiKey(presented);
    if (!lookupId) throw new TokenInvalidError('Invalid API key');
    const fingerprint = sha256Hex(presented);
    const proven = this.provenKeys.get(fingerprint);
    let row: LiveApiKey | null;
    if (proven) {
      row = await this.keyById(proven.keyId);
      // Still the row this secret was proven against, with the same hash: no bcrypt needed.
      if (!row || row.keyHash !== proven.keyHash) throw new TokenInvalidError('Invalid API key');
    } else {
      row = await this.keyByLookup(lookupId);
      if (!row || !(await this.prove(fingerprint, presented, row))) throw new TokenInvalidError('Invalid API key');
    }
    this.touch(row.keyId);
    return this.actor(row, { kind: 'api-key', keyId: row.keyId, limits: row.limits });
  }

  /** Throws TokenInvalidError for a bad, expired or foreign token, or one whose session or key ended. */
  async fromJwt(token: string): Promise<Actor> {
    let claims = this.verifiedJwts.get(token);
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    if (!claims) {
      const verified = await this.tokens.verify(token);
      if (!verified) throw new TokenInvalidError();
      claims = verified;
      this.verifiedJwts.set(token, claims, { ttl: Math.max(1, (claims.exp - nowSec) * 1000) });
    }
    if (claims.exp <= nowSec) throw new TokenInvalidError();
    const origin = parseSid(claims.sid);
    const live = origin && (await this.liveOrigin(origin));
    if (!origin || !live || live.userId !== claims.userId) throw new TokenInvalidError('Token revoked');
    // a JWT issued from a key acts within that key's limits, as read now
    return this.actor(live, { kind: 'jwt', origin: 'limits' in live ? { kind: 'api-key', keyId: live.keyId, limits: live.limits } : origin });
  }

  /** The live session or key a JWT was issued from. */
  private async liveOrigin(origin: CredentialOrigin): Promise<LiveSession | LiveApiKey | null> {
    if (origin.kind === 'api-key') return this.keyById(origin.keyId);
    const id = origin.sessionId;
    let session: LiveSession | null | undefined = this.cache.sessionsById.get(id);
    if (!session) {
      session = await this.lookup.sessionById(id);
      if (session) this.cache.sessionsById.set(id, session);
    } else this.cache.refreshAhead(this.cache.sessionsById, id, () => this.lookup.sessionById(id));
    return session && session.expiresAt.getTime() > this.clock.now().getTime() ? session : null;
  }

  private async keyById(id: string): Promise<LiveApiKey | null> {
    let row = this.cache.keysById.get(id);
    if (!row) {
      row = (await this.lookup.apiKeyById(id)) ?? undefined;
      if (row) this.cache.keysById.set(id, row);
    } else this.cache.refreshAhead(this.cache.keysById, id, () => this.lookup.apiKeyById(id));
    return this.unexpired(row);
  }

  private async keyByLookup(lookupId: string): Promise<LiveApiKey | null> {
    let row = this.cache.keysByLookup.get(lookupId);
    if (!row) {
      row = (await this.lookup.apiKeyByLookupId(lookupId)) ?? undefined;
      if (row) {
        this.cache.keysByLookup.set(lookupId, row);
        this.cache.keysById.set(row.keyId, row);
      }
    }
    return this.unexpired(row);
  }

  /** A key read before its expiry (the lookup reads none after it) stops at its expiry, cached or not. */
  private unexpired(row: LiveApiKey | undefined): LiveApiKey | null {
    return row && !keyExpired(row.limits, this.clock.now()) ? row : null;
  }

  private async prove(fingerprint: string, presented: string, row: LiveApiKey): Promise<boolean> {
    let pending = this.pendingProofs.get(fingerprint);
    if (!pending) {
      pending = this.secrets.verify(presented, row.keyHash).finally(() => this.pendingProofs.delete(fingerprint));
      this.pendingProofs.set(fingerprint, pending);
    }
    const ok = await pending;
    if (ok) this.provenKeys.set(fingerprint, { keyId: row.keyId, keyHash: row.keyHash });
    return ok;
  }

  /** lastUsed at most once a minute per key; the statement itself also refuses more often. */
  private touch(keyId: string): void {
    const now = this.clock.now();
    const last = this.lastTouched.get(keyId);
    if (last !== undefined && now.getTime() - last < LAST_USED_EVERY_MS) return;
    this.lastTouched.set(keyId, now.getTime());
    this.lookup.touchApiKey(keyId, now).catch(() => this.lastTouched.delete(keyId));
  }

  /** The role from the e-mail and its verified mark as read with the credential, now. */
  private actor(owner: Owner, credential: Actor['credential']): Actor {
    const { userId, email, emailVerified } = owner;
    return { userId, email, emailVerified, role: roleFor(email, emailVerified, this.settings.adminEmails), credential };
  }
}
