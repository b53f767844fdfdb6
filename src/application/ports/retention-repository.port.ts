/** Deletes what has outlived its use; each returns how many rows went. */
export interface RetentionRepository {
  dailyUsageBefore(day: string): Promise<number>;
  expiredSessions(now: Date): Promise<number>;
  expiredWalletNonces(now: Date): Promise<number>;
  /** Delivered rows delivered before `before`, and undelivered mail created before it (its tokens long expired). */
  outboxBefore(before: Date): Promise<number>;
  webhookDeliveriesBefore(before: Date): Promise<number>;
}
