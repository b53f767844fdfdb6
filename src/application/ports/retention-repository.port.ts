/** Deletes what has outlived its use; each returns how many rows went. */
export interface RetentionRepository {
  dailyUsageBefore(day: string): Promise<number>;
  expiredSessions(now: Date): Promise<number>;
  expiredWalletNonces(now: Date): Promise<number>;
  /** Delivered rows delivered before `before`, and undelivered mail created before it (its tokens long expired). */
  outboxBefore(before: Date): Promise<number>;
  webhookDeliveriesBefore(before: Date): Promise<number>;
  /**
   * Up to `batch` answered mailbox rows finished before `before`, oldest first (failed rows stay:
   * a page of messages shows their failure code). The messages themselves are never touched.
   */
  answeredMailboxBefore(before: Date, batch: number): Promise<number>;
  /**
   * Up to `batch` message events (answered, failed) from before `before`, oldest first, each
   * added to its agent's totals (agent_message_totals) in the same statement, so an agent's
   * all-time figures stay what they were. Lifecycle events (started, crashed...) stay.
   */
  messageEventsBefore(before: Date, batch: number): Promise<number>;
}
