import { inject, injectable } from 'tsyringe';
import { defaultHeartbeat, type HeartbeatState } from '../../domain/heartbeat/heartbeat-schedule.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** GET /api/heartbeat: the stored settings, or the defaults when none were saved. */
@injectable()
export class GetHeartbeat {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'heartbeats'>) {}

  async execute(actor: Pick<Actor, 'userId'>): Promise<HeartbeatState> {
    const stored = await this.uow.asUser(actor.userId, (s) => s.heartbeats.get());
    if (!stored) return defaultHeartbeat();
    const { updatedAt: _updatedAt, ...state } = stored;
    return state;
  }
}
