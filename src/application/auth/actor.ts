import type { Role } from '../../domain/accounts/account-rules.js';
import { NO_KEY_LIMITS, type ApiKeyLimits } from '../../domain/accounts/api-key-limits.js';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * A session or an API key: what a caller signed in with, and what a JWT is issued from. A key's
 * `limits` are as read with it (decision 0425); absent (a `sid` just parsed, a test's actor): none.
 */
export type CredentialOrigin = { kind: 'session'; sessionId: string } | { kind: 'api-key'; keyId: string; limits?: ApiKeyLimits };

/** How the caller proved who they are; a JWT remembers the session or key it came from. */
export type Credential = CredentialOrigin | { kind: 'jwt'; origin: CredentialOrigin };

/**
 * The authenticated caller of a use case. `role` is decided from configuration and the verified
 * mark at each request; `emailVerified` is the account's mark as read with the credential.
 */
export interface Actor {
  userId: UserId;
  email: string;
  emailVerified: boolean;
  role: Role;
  credential: Credential;
}

const originOf = (c: Credential): CredentialOrigin => (c.kind === 'jwt' ? c.origin : c);

/** The `sid` claim a JWT carries, naming the session (`s:<id>`) or API key (`k:<id>`) it was issued from. */
export function sidOf(c: Credential): string {
  const o = originOf(c);
  return o.kind === 'session' ? `s:${o.sessionId}` : `k:${o.keyId}`;
}

/** The one reading of a `sid` claim; null for anything this service did not write. */
export function parseSid(sid: string): CredentialOrigin | null {
  const id = sid.slice(2);
  if (id.length === 0) return null;
  if (sid.startsWith('s:')) return { kind: 'session', sessionId: id };
  if (sid.startsWith('k:')) return { kind: 'api-key', keyId: id };
  return null;
}

/** The session behind a credential: the cookie's own, or the one a JWT was issued from; null for API keys. */
export function sessionIdOf(c: Credential): string | null {
  const o = originOf(c);
  return o.kind === 'session' ? o.sessionId : null;
}

/** The API key a caller acts through (the key itself, or the key a JWT was issued from), or null. */
export interface ActingKey {
  readonly id: string;
  readonly limits: ApiKeyLimits;
}

/** The key behind a credential, with its limits; null for a session or a JWT issued from one. */
export function actingKey(c: Credential): ActingKey | null {
  const o = originOf(c);
  return o.kind === 'api-key' ? { id: o.keyId, limits: o.limits ?? NO_KEY_LIMITS } : null;
}
