import type { UserId } from '../../domain/shared/ids.js';

export type OutboxTopic = 'user.created' | 'user.updated' | 'user.deleted' | 'mail';

/** Writes an event in the caller's transaction: it exists exactly when the change committed. */
export interface Outbox {
  add(topic: OutboxTopic, userId: UserId | null, payload: Record<string, unknown>): Promise<void>;
}
