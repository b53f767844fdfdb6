import type { UserId } from '../../domain/shared/ids.js';

export interface SessionRecord {
  id: string;
  userId: UserId;
  expiresAt: Date;
}

/** Sessions are stored by the SHA-256 of their token only. */
export interface SessionRepository {
  create(userId: UserId, tokenHash: Buffer, expiresAt: Date): Promise<SessionRecord>;
  /** Deletes one session by id; true when it existed. */
  delete(id: string): Promise<boolean>;
  /** Deletes every session of the user except `keep` (null: all of them); returns their ids. */
  deleteAllOf(userId: UserId, keep: string | null): Promise<string[]>;
}
