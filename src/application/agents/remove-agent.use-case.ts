import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { INSTANCE_SETTINGS, type InstanceSettings } from '../ports/instance-settings.port.js';
import { INSTANCE_COMMANDS, type InstanceCommands } from '../ports/instance-commands.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/** What removing did to the instance's runtime: stopped by this call, or left as it was. */
export interface AgentRemoval {
  /** True when the agent was the instance's last and its runtime was stopped here. */
  runtimeStopped: boolean;
}

/**
 * POST /api/agents/:id/remove (CONTRACT.md section 7 "removing an agent"). The agent and all that
 * is its are deleted in one transaction, under the user's provisioning lock: the plan's count
 * frees at commit, and a provisioning running at the same time counts after the removal.
 *
 * The runtime is stopped afterwards, only when no agent is left, by the worker owning the
 * instance (the same `stop` command as POST /api/instance/:userId/stop). The removal never waits
 * on it to be kept: a stop that fails or is not answered in time leaves the rows removed, is
 * logged, and is reported as `runtimeStopped: false` (the owner can stop the instance itself).
 */
@injectable()
export class RemoveAgent {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'instances'>,
    @inject(INSTANCE_COMMANDS) private readonly commands: InstanceCommands,
    @inject(INSTANCE_SETTINGS) private readonly settings: InstanceSettings,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(actor: Actor, agentId: string): Promise<AgentRemoval> {
    const { remaining, instance } = await this.uow.asUser(actor.userId, async (s) => {
      await s.agents.lockForProvisioning();
      if (!(await s.agents.remove(agentId))) throw new NotFoundError('Agent');
      return { remaining: await s.agents.count(), instance: await s.instances.get() };
    });
    if (remaining > 0 || !instance || instance.status === 'stopped') return { runtimeStopped: false };
    const answer = await this.commands.request(actor.userId, 'stop', this.settings.commandTimeoutMs).catch((err: unknown) => {
      this.log.warn({ err, userId: actor.userId }, 'agent removed; asking its runtime to stop failed');
      return null;
    });
    if (answer?.ok) return { runtimeStopped: true };
    this.log.warn({ userId: actor.userId, answer }, 'agent removed; its instance\'s runtime did not stop');
    return { runtimeStopped: false };
  }
}
