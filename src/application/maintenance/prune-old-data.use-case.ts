import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { MaintenanceSystemScope } from '../ports/scopes/maintenance-scope.port.js';

const DAY_MS = 86_400_000;

/** How long each kind of row is kept once it has no use (docs/decisions/0032-retention.md). */
export const RETENTION = {
  /** Daily usage rows: long enough for the metrics' 30-day window and a quarter of billing questions. */
  dailyUsageDays: 90,
  /** Delivered outbox rows (and undelivered mail, whose tokens expired long before). */
  outboxDays: 30,
  /** Webhook delivery records, delivered or dead. */
  webhookDeliveryDays: 30,
  /**
   * Answered mailbox rows, and message events (rolled into their agent's totals): as long as the
   * metrics keep their samples (31 days, the longest window any metric reads them over), so no
   * figure anyone reads changes (decision 0466).
   */
  deliveredMessageDays: 31,
  /** Rows deleted per statement (each its own transaction), and statements per run at most. */
  batch: 5000,
  batchesPerRun: 200,
} as const;

export type PruneKind = 'daily-usage' | 'sessions' | 'wallet-nonces' | 'outbox' | 'webhook-deliveries' | 'mailbox' | 'agent-events';

/**
 * The scheduled pruning jobs, one kind per job. Each deletes in one statement of the system unit
 * of work; a run that fails is retried by the next occurrence, and running twice deletes nothing more.
 */
@injectable()
export class PruneOldData {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<MaintenanceSystemScope, 'retention'>,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(kind: PruneKind): Promise<number> {
    const now = this.clock.now();
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
    if (kind === 'mailbox' || kind === 'agent-events') return this.inBatches(kind, ago(RETENTION.deliveredMessageDays));
    const deleted = await this.uow.asSystem((s) => {
      switch (kind) {
        case 'daily-usage':
          return s.retention.dailyUsageBefore(ago(RETENTION.dailyUsageDays).toISOString().slice(0, 10));
        case 'sessions':
          return s.retention.expiredSessions(now);
        case 'wallet-nonces':
          return s.retention.expiredWalletNonces(now);
        case 'outbox':
          return s.retention.outboxBefore(ago(RETENTION.outboxDays));
        case 'webhook-deliveries':
          return s.retention.webhookDeliveriesBefore(ago(RETENTION.webhookDeliveryDays));
      }
    });
    if (deleted > 0) this.log.info({ kind, deleted }, 'old rows pruned');
    return deleted;
  }

  /**
   * The tables every message adds to: a batch per statement and transaction (no long lock, no
   * long transaction holding back vacuum), until a batch comes back short or the run's bound.
   */
  private async inBatches(kind: 'mailbox' | 'agent-events', before: Date): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < RETENTION.batchesPerRun; i++) {
      const n = await this.uow.asSystem((s) =>
        kind === 'mailbox' ? s.retention.answeredMailboxBefore(before, RETENTION.batch) : s.retention.messageEventsBefore(before, RETENTION.batch),
      );
      deleted += n;
      if (n < RETENTION.batch) break;
    }
    if (deleted > 0) this.log.info({ kind, deleted }, 'old rows pruned');
    return deleted;
  }
}
