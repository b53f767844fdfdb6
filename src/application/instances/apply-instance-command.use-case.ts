import { inject, injectable } from 'tsyringe';
import type { InstanceMove } from '../../domain/agents/instance.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import type { UserId } from '../../domain/shared/ids.js';
import { newGatewayToken } from '../agents/gateway-token.js';
import { AGENT_RUNTIME, type AgentRuntime } from '../ports/agent-runtime.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { STARTING_COMMANDS, type ClaimedCommand, type CommandAnswer } from '../ports/instance-commands.port.js';
import { INSTANCE_LEASES, type InstanceLeases } from '../ports/instance-leases.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { applyInstanceMove } from './instance-moves.js';
import { InstanceRuntimeStarter } from './instance-runtime-starter.js';
import { LocalInstances } from './local-instances.js';

/**
 * The worker side of a lifecycle call: runs a command this worker claimed (it holds the lease, or
 * nobody does and the command starts nothing) and returns the answer for the waiting api process.
 *
 * The runtime acts first, the state moves after: a runtime that fails leaves the stored state as
 * it was (spec: "lifecycle call fails → unchanged") and answers the failure's code (502 for
 * `UPSTREAM_UNAVAILABLE`). Repair starts the runtime with a new gateway token and stores it
 * (sealed and hashed) with the move, so the old token stops working only when the new one runs.
 */
@injectable()
export class ApplyInstanceCommand {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'agents' | 'instances' | 'agentEvents' | 'agentMemory'>,
    @inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @inject(INSTANCE_LEASES) private readonly leases: InstanceLeases,
    @inject(InstanceRuntimeStarter) private readonly starter: InstanceRuntimeStarter,
    @inject(LocalInstances) private readonly local: LocalInstances,
    @inject(SECRET_BOX) private readonly secrets: SecretBox,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  execute(command: ClaimedCommand): Promise<CommandAnswer> {
    return this.local.serially(command.userId, async () => {
      try {
        return { ok: true, value: await this.run(command) };
      } catch (err) {
        // a starting command that failed and left nothing running gives its lease back
        if (STARTING_COMMANDS.includes(command.command) && !this.runtime.isRunning(command.userId)) await this.leases.release(command.userId).catch(() => {});
        if (err instanceof DomainError) return { ok: false, code: err.code, message: err.message };
        this.log.error({ err, userId: command.userId, command: command.command }, 'instance command failed');
        return { ok: false, code: 'INSTANCE_COMMAND_FAILED', message: 'The instance command failed' };
      }
    });
  }

  private async run({ userId, command }: ClaimedCommand): Promise<unknown> {
    switch (command) {
      case 'stats':
        return this.runtime.stats(userId);
      case 'join': {
        await this.starter.start(userId, await this.starter.load(userId));
        return { joined: true };
      }
      case 'reset-memory': {
        await this.starter.load(userId); // 404 for a user without an instance
        if (this.runtime.isRunning(userId)) await this.runtime.resetMemory(userId);
        // CONTRACT.md 7 "reset-memory": the stored memory of every agent of the instance goes too
        await this.uow.asSystem((s) => s.agentMemory.clearAllOf(userId));
        return { success: true, message: 'Memory reset for every agent of the instance' };
      }
      case 'stop': {
        await this.starter.load(userId);
        await this.starter.stop(userId);
        await this.move(userId, 'stop');
        await this.leases.release(userId);
        return { status: 'stopped' };
      }
      case 'start':
      case 'restart':
      case 'update': {
        const loaded = await this.starter.load(userId);
        if (command !== 'start') await this.starter.stop(userId);
        await this.starter.start(userId, loaded);
        await this.move(userId, command);
        return { status: 'running' };
      }
      case 'repair': {
        const loaded = await this.starter.load(userId);
        const fresh = newGatewayToken(this.ids, this.secrets, userId);
        await this.starter.stop(userId);
        await this.starter.start(userId, { token: fresh.token, ramGb: loaded.ramGb });
        await this.uow.asSystem(async (s) => {
          await s.instances.rotateGatewayToken(userId, fresh.stored);
          await applyInstanceMove(s, userId, 'repair', this.clock.now());
        });
        return { success: true, message: 'Instance repaired: runtime restarted with a new gateway token' };
      }
    }
  }

  private move(userId: UserId, move: InstanceMove) {
    return this.uow.asSystem((s) => applyInstanceMove(s, userId, move, this.clock.now()));
  }
}
