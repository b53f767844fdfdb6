import type { UserId } from '../shared/ids.js';
import { DomainError } from '../shared/domain-error.js';

/** The two OAuth providers the spec names: a code host (plain OAuth 2) and an OpenID Connect identity provider. */
export const OAUTH_PROVIDERS = ['codehost', 'idp'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** How long a started sign-in may take at the provider before its state is refused. */
export const OAUTH_FLOW_TTL_MS = 10 * 60_000;

/** What the provider told us about the person, once the code was exchanged. */
export interface OAuthProfile {
  /** The provider's stable id for the person. */
  subject: string;
  /** Lower-cased; null when the provider gave none. */
  email: string | null;
  emailVerified: boolean;
  /** A display name for a new account, when the provider has one. */
  name: string | null;
}

export type OAuthLinkDecision =
  | { kind: 'sign-in'; userId: UserId }
  | { kind: 'link'; userId: UserId }
  | { kind: 'create'; emailVerified: boolean }
  | { kind: 'refuse'; reason: 'provider-email-unverified' | 'account-email-unverified' | 'no-email' };

/**
 * Who the profile signs in as (CONTRACT.md section 4): the identity already linked, whatever the
 * e-mails say now; else the account with the same e-mail, but only when BOTH sides vouch for
 * the address (an unverified address on either side could be someone else's: never a takeover);
 * else a new account.
 */
export function decideOAuthLink(
  profile: OAuthProfile,
  linkedUserId: UserId | null,
  accountWithEmail: { id: UserId; emailVerified: boolean } | null,
): OAuthLinkDecision {
  if (linkedUserId) return { kind: 'sign-in', userId: linkedUserId };
  if (!profile.email) return { kind: 'refuse', reason: 'no-email' };
  if (!accountWithEmail) return { kind: 'create', emailVerified: profile.emailVerified };
  if (!profile.emailVerified) return { kind: 'refuse', reason: 'provider-email-unverified' };
  if (!accountWithEmail.emailVerified) return { kind: 'refuse', reason: 'account-email-unverified' };
  return { kind: 'link', userId: accountWithEmail.id };
}

export class OAuthNotConfiguredError extends DomainError {
  constructor(provider: OAuthProvider) {
    super('OAUTH_NOT_CONFIGURED', `Sign-in with ${provider} is not configured on this service`, { provider });
  }
}

/** The callback's state is missing, does not match this browser's, is spent or expired. */
export class OAuthStateInvalidError extends DomainError {
  constructor() {
    super('OAUTH_STATE_INVALID', 'This sign-in link is invalid, already used or expired; start the sign-in again');
  }
}

/** The provider refused (the person declined, the code was rejected, the ID token did not check out). */
export class OAuthRejectedError extends DomainError {
  constructor(provider: OAuthProvider, reason: string) {
    super('OAUTH_REJECTED', `Sign-in with ${provider} was refused: ${reason}`, { provider });
  }
}

/** An account with the provider's e-mail exists, but the address is not verified on both sides. */
export class OAuthAccountNotLinkableError extends DomainError {
  constructor(reason: 'provider-email-unverified' | 'account-email-unverified') {
    super(
      'OAUTH_ACCOUNT_NOT_LINKABLE',
      reason === 'provider-email-unverified'
        ? 'An account with this e-mail exists, and the provider has not verified the address: sign in with your password instead'
        : 'An account with this e-mail exists, and its address is not verified yet: sign in with your password and verify it first',
      { reason },
    );
  }
}

export class OAuthEmailRequiredError extends DomainError {
  constructor(provider: OAuthProvider) {
    super('OAUTH_EMAIL_REQUIRED', `${provider} did not share an e-mail address; allow access to it and try again`, { provider });
  }
}
