import type { InjectionToken } from 'tsyringe';
import type { Role } from '../../domain/accounts/account-rules.js';
import type { UserId } from '../../domain/shared/ids.js';

export interface AccessClaims {
  userId: UserId;
  email: string;
  role: Role;
  /** The session (`s:<id>`) or API key (`k:<id>`) the token came from. */
  sid: string;
}

/** Signs and verifies the service's bearer tokens (HS256, algorithm pinned). */
export interface TokenSigner {
  sign(claims: AccessClaims, ttlSeconds: number): Promise<string>;
  /** Claims with their expiry, or null for any bad, expired or differently-signed token. */
  verify(token: string): Promise<(AccessClaims & { exp: number }) | null>;
}
export const TOKEN_SIGNER: InjectionToken<TokenSigner> = Symbol('TokenSigner');
