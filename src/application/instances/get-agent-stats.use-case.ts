import { inject, injectable } from 'tsyringe';
import type { Agent } from '../../domain/agents/agent.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { AgentMessageFigures } from '../ports/agent-repository.port.js';
import type { RuntimeStats } from '../ports/agent-runtime.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { INSTANCE_COMMANDS, type InstanceCommands } from '../ports/instance-commands.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { INSTANCE_SETTINGS, type InstanceSettings } from '../ports/instance-settings.port.js';

const HOUR_MS = 3_600_000;

/**
 * An agent's stats (spec "Agent stats"): message figures from its events, and the runtime's
 * live figures asked of the owning worker. `live: false` (the spec's mock variant) only when
 * the runtime does not answer (no instance yet, no worker answer in time, a failure); a runtime
 * that answers "not running" is live with no figures. Another user's agent: 404.
 */
/** An instance made with the first agent has no runtime to ask until its provisioning job ran. */
const isPastProvisioning = (i: { status: string } | null): boolean => i !== null && i.status !== 'provisioning';

@injectable()
export class GetAgentStats {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'instances' | 'agentEvents'>,
    @inject(INSTANCE_COMMANDS) private readonly commands: InstanceCommands,
    @inject(INSTANCE_SETTINGS) private readonly settings: InstanceSettings,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, agentId: string): Promise<{ agent: Agent; figures: AgentMessageFigures; live: boolean; runtime: RuntimeStats | null; at: Date }> {
    const at = this.clock.now();
    const found = await this.uow.asUser(actor.userId, async (s) => {
      const agent = await s.agents.get(agentId);
      if (!agent) return null;
      return { agent, hasInstance: isPastProvisioning(await s.instances.get()), figures: await s.agentEvents.messageFigures(agentId, new Date(at.getTime() - HOUR_MS)) };
    });
    if (!found) throw new NotFoundError('Agent');
    const answer = found.hasInstance ? await this.commands.request(actor.userId, 'stats', this.settings.statsTimeoutMs) : null;
    if (!answer?.ok) return { agent: found.agent, figures: found.figures, live: false, runtime: null, at };
    return { agent: found.agent, figures: found.figures, live: true, runtime: answer.value as RuntimeStats | null, at };
  }
}
