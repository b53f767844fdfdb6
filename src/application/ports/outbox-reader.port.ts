/** An event of the outbox not yet relayed. */
export interface OutboxEvent {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** The system side of the outbox: the relay and the mail job read it and record their work. */
export interface OutboxReader {
  /**
   * Up to `limit` undelivered events of `topics`, oldest first, locked for this transaction and
   * skipped by any concurrent reader (FOR UPDATE SKIP LOCKED).
   */
  claimUndelivered(topics: readonly string[], limit: number): Promise<OutboxEvent[]>;
  /** One undelivered row; null when already delivered or gone. */
  findUndelivered(id: string): Promise<OutboxEvent | null>;
  markDelivered(ids: readonly string[], at: Date): Promise<void>;
  recordFailure(id: string, error: string): Promise<void>;
}
