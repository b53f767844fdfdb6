import { inject, injectable } from 'tsyringe';
import type { Instance } from '../../domain/agents/instance.js';
import type { Actor } from '../auth/actor.js';
import type { RuntimeStats } from '../ports/agent-runtime.port.js';
import { INSTANCE_COMMANDS, type InstanceCommands } from '../ports/instance-commands.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { ownedInstance, valueOf } from './instance-access.js';
import { INSTANCE_SETTINGS, type InstanceSettings } from '../ports/instance-settings.port.js';

/**
 * The instance with its runtime's live figures, asked of the owning worker; `stats` is null when
 * no runtime runs (the caller shows `N/A`, never an invented figure), without asking while the
 * instance is still provisioning. No answer in time → 502.
 */
@injectable()
export class GetInstanceStats {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'instances'>,
    @inject(INSTANCE_COMMANDS) private readonly commands: InstanceCommands,
    @inject(INSTANCE_SETTINGS) private readonly settings: InstanceSettings,
  ) {}

  async execute(actor: Actor, userId: string): Promise<{ instance: Instance; stats: RuntimeStats | null }> {
    const owned = await ownedInstance(this.uow, actor, userId);
    // an instance still provisioning has never had a runtime: nothing to ask a worker (which may be minutes away)
    if (owned.instance.status === 'provisioning') return { instance: owned.instance, stats: null };
    const stats = valueOf(await this.commands.request(owned.userId, 'stats', this.settings.statsTimeoutMs)) as RuntimeStats | null;
    return { instance: owned.instance, stats };
  }
}
