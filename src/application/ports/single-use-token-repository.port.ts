import type { UserId } from '../../domain/shared/ids.js';

/** Single-use tokens (e-mail verification, password reset), stored hashed. System unit of work. */
export interface SingleUseTokenRepository<Extra extends object = object> {
  issue(tokenHash: Buffer, userId: UserId, expiresAt: Date, extra: Extra): Promise<void>;
  /**
   * Atomic: marks the token used and returns its owner, only if it exists, is unused and not
   * expired at `now`. Of two concurrent calls with the same token, exactly one gets the owner.
   */
  consume(tokenHash: Buffer, now: Date): Promise<({ userId: UserId } & Extra) | null>;
}
