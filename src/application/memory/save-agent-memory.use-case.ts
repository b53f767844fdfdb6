import { inject, injectable } from 'tsyringe';
import { checkMemoryKeyCap, memoryWrite } from '../../domain/memory/memory-limits.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

export interface SavedMemory {
  /** The keys written, in request order. */
  keys: string[];
  /** When they were written (every key of the write has this time). */
  saved: Date;
}

/**
 * POST /api/memory, single (`key` and `memory`) or bulk (`memory` an object, no `key`): every
 * limit is checked before anything is stored, then all keys are written in one transaction (all
 * or nothing). The agent must be the caller's (else 404). Writes to one agent are serialised so
 * the per-agent key cap holds under concurrent writes.
 */
@injectable()
export class SaveAgentMemory {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentMemory'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(actor: Pick<Actor, 'userId'>, input: { agentId: string; key?: string | undefined; memory: unknown }): Promise<SavedMemory> {
    const entries = memoryWrite(input);
    const keys = entries.map(([key]) => key);
    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(input.agentId))) throw new NotFoundError('Agent');
      await s.agentMemory.lockForWrite(input.agentId);
      const counts = await s.agentMemory.keyCounts(input.agentId, keys);
      checkMemoryKeyCap(counts.stored, counts.absent);
      const saved = this.clock.now();
      await s.agentMemory.upsert(input.agentId, actor.userId, entries, saved);
      return { keys, saved };
    });
  }
}
