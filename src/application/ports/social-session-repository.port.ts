import type { UserId } from '../../domain/shared/ids.js';

/** The outcome of presenting a refresh token. */
export type RefreshTokenUse =
  /** It was live and is now used: its family may rotate. */
  | { kind: 'consumed'; familyId: string; userId: UserId; sessionId: string }
  /** It had already been used: someone holds a copy. The caller revokes the family. */
  | { kind: 'reused'; familyId: string }
  /** Unknown, expired, or its family ended (revoked or signed out). */
  | { kind: 'invalid' };

/**
 * Social identities and the refresh-token families of social sessions. System unit of work
 * (the user is not known before the token is checked). Tokens are stored by SHA-256 only.
 */
export interface SocialSessionRepository {
  userByFid(fid: number): Promise<UserId | null>;
  /** Records that `fid` signs in as `userId`. Throws FidAlreadyLinkedError when the fid is linked (a concurrent first sign-in). */
  link(fid: number, userId: UserId): Promise<void>;
  /** Starts a family for a new sign-in whose session is `sessionId`; returns its id. */
  openFamily(userId: UserId, sessionId: string): Promise<string>;
  issueRefreshToken(familyId: string, tokenHash: Buffer, expiresAt: Date): Promise<void>;
  /**
   * Atomic: marks the token used if it is unused, unexpired at `now` and its family is live.
   * Of two concurrent calls with one token, exactly one gets `consumed`; the other sees `reused`.
   */
  useRefreshToken(tokenHash: Buffer, now: Date): Promise<RefreshTokenUse>;
  /** Points the family at its new session. */
  moveFamily(familyId: string, sessionId: string): Promise<void>;
  /** Ends the family: no token of it refreshes again. Returns the session it held, for the caller to delete. */
  revokeFamily(familyId: string, now: Date): Promise<string | null>;
}
