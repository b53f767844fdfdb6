import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { GatewaySystemScope } from '../ports/scopes/gateway-scope.port.js';

/** Kept an hour past expiry, so a late credential still gets "expired" rather than "unknown". */
const KEEP_AFTER_EXPIRY_MS = 60 * 60 * 1000;

/**
 * Deletes MPP challenges that expired unpaid: every 402 at the gateway stores one, most are never
 * paid. Run hourly by a scheduled job in worker processes; overlapping runs are harmless.
 */
@injectable()
export class PurgeExpiredChallenges {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<GatewaySystemScope, 'mppLedger'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ purged: number }> {
    const cutoff = new Date(this.clock.now().getTime() - KEEP_AFTER_EXPIRY_MS);
    return { purged: await this.uow.asSystem((s) => s.mppLedger.purgeExpired(cutoff)) };
  }
}
