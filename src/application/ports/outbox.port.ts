import type { UserId } from '../../domain/shared/ids.js';

export type OutboxTopic = 'user.created' | 'user.updated' | 'user.deleted' | 'mail';

/** Writes an event in the caller's transaction: it exists exactly when the change committed. */
export interface Outbox {
  add(topic: OutboxTopic, userId: UserId | null, payload: Record<string, unknown>): Promise<void>;
}

/** Account mail kept in the outbox (topic `mail`), written in the transaction of the token it carries. */
export interface MailOutbox {
  /** Returns the row's id, which the delivery job names. */
  add(mail: { to: string; subject: string; text: string; html?: string | undefined }, userId: UserId | null): Promise<string>;
}
