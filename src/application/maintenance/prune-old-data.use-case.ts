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
} as const;

export type PruneKind = 'daily-usage' | 'sessions' | 'wallet-nonces' | 'outbox' | 'webhook-deliveries';

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
}
