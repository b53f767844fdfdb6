import type { OAuthProvider } from '../../domain/accounts/oauth.js';
import type { UserId } from '../../domain/shared/ids.js';

/** Started OAuth flows, keyed by the SHA-256 of their state. System unit of work. */
export interface OAuthFlowRepository {
  create(flow: { stateHash: Buffer; provider: OAuthProvider; codeVerifier: string; nonce: string | null; expiresAt: Date }): Promise<void>;
  /**
   * Atomic: marks the flow used and returns its secrets, only if it exists for `provider`, is
   * unused and not expired at `now`. Of two concurrent calls with the same state, exactly one wins.
   */
  consume(stateHash: Buffer, provider: OAuthProvider, now: Date): Promise<{ codeVerifier: string; nonce: string | null } | null>;
}

/** The e-mail the provider gave, and whether it vouched for it. */
export interface EmailClaim {
  email: string | null;
  verified: boolean;
}

/** Which account a provider's subject signs in as. System unit of work. */
export interface OAuthIdentityRepository {
  findUserId(provider: OAuthProvider, subject: string): Promise<UserId | null>;
  /**
   * Records the link and returns the account the subject is linked to: under a race with another
   * first sign-in of the same subject, the first link stays and is the one returned.
   */
  link(provider: OAuthProvider, subject: string, userId: UserId, email: EmailClaim): Promise<UserId>;
  /** Notes the sign-in and the e-mail the provider gives now. */
  touch(provider: OAuthProvider, subject: string, email: EmailClaim): Promise<void>;
  /**
   * Removes the user's identities whose provider did not vouch for the e-mail (after a password
   * reset proved who holds the mailbox). Returns how many.
   */
  unlinkUnverified(userId: UserId): Promise<number>;
}
