import { inject, injectable } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import type { RuntimeExit } from '../ports/agent-runtime.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { INSTANCE_LEASES, type InstanceLeases } from '../ports/instance-leases.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';
import { applyInstanceMove } from './instance-moves.js';
import { LocalInstances } from './local-instances.js';

/**
 * A runtime of this worker ended without being asked (AgentRuntime.onExit: a crash, a kill from
 * outside, the memory watchdog): the instance and its live agents move to `error` by the state
 * machine (`crash`), each with a `crashed` event carrying the reason (`memory_cap` included), and
 * the lease is given back. Repair brings it back.
 */
@injectable()
export class HandleRuntimeExit {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'agents' | 'instances' | 'agentEvents'>,
    @inject(INSTANCE_LEASES) private readonly leases: InstanceLeases,
    @inject(LocalInstances) private readonly local: LocalInstances,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  execute(userId: UserId, exit: RuntimeExit): Promise<void> {
    return this.local.serially(userId, async () => {
      this.local.markStopped(userId);
      const reason = `${exit.reason}: ${exit.detail}`;
      this.log.warn({ userId, exit }, 'agent runtime exited on its own');
      await this.uow.asSystem((s) => applyInstanceMove(s, userId, 'crash', this.clock.now(), reason));
      await this.leases.release(userId);
    });
  }
}
