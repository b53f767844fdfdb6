import { inject, injectable } from 'tsyringe';
import { changeHeartbeat, parseHeartbeatFrequency, type HeartbeatState } from '../../domain/heartbeat/heartbeat-schedule.js';
import type { Actor } from '../auth/actor.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/**
 * POST /api/heartbeat: what is given replaces what was stored (or the defaults); an invalid
 * frequency is refused before the transaction, so nothing is written.
 */
@injectable()
export class SaveHeartbeat {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'heartbeats'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Pick<Actor, 'userId'>, change: { frequency?: string | undefined; enabled?: boolean | undefined }): Promise<HeartbeatState & { lastUpdated: Date }> {
    if (change.frequency !== undefined) parseHeartbeatFrequency(change.frequency); // before any database work
    return this.uow.asUser(actor.userId, async (s) => {
      const now = this.clock.now();
      const next = changeHeartbeat(await s.heartbeats.get(), change, now);
      const lastUpdated = await s.heartbeats.save(next, now);
      return { ...next, lastUpdated };
    });
  }
}
