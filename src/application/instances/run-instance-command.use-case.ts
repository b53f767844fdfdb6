import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { INSTANCE_COMMANDS, type InstanceCommands } from '../ports/instance-commands.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { ownedInstance, valueOf } from './instance-access.js';
import { INSTANCE_SETTINGS, type InstanceSettings } from '../ports/instance-settings.port.js';

export type LifecycleCommand = 'start' | 'stop' | 'restart' | 'update' | 'repair' | 'reset-memory';

/**
 * A lifecycle call from any api process: asks the worker owning the instance through the
 * database (InstanceCommands) and waits for its answer. No shortcut when this process is also a
 * worker (SERVICE_ROLE=all). No answer in time → 502, nothing changed by the caller.
 */
@injectable()
export class RunInstanceCommand {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'instances'>,
    @inject(INSTANCE_COMMANDS) private readonly commands: InstanceCommands,
    @inject(INSTANCE_SETTINGS) private readonly settings: InstanceSettings,
  ) {}

  async execute(actor: Actor, userId: string, command: LifecycleCommand): Promise<unknown> {
    const owned = await ownedInstance(this.uow, actor, userId);
    return valueOf(await this.commands.request(owned.userId, command, this.settings.commandTimeoutMs));
  }
}
