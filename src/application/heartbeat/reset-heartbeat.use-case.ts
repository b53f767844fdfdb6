import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** DELETE /api/heartbeat: back to the defaults (the row goes; idempotent). */
@injectable()
export class ResetHeartbeat {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'heartbeats'>) {}

  async execute(actor: Pick<Actor, 'userId'>): Promise<void> {
    await this.uow.asUser(actor.userId, (s) => s.heartbeats.delete());
  }
}
