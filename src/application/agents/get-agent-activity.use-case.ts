import { inject, injectable } from 'tsyringe';
import type { AgentEvent } from '../../domain/agents/agent-event.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { HourlyMessages } from '../ports/agent-repository.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

const HOUR_MS = 3_600_000;
/** The timeline's length: enough for a page, bounded whatever the agent did. */
export const ACTIVITY_EVENTS_MAX = 200;

export interface AgentActivity {
  from: Date;
  to: Date;
  /** Lifecycle moves, failures with their reason, skipped heartbeats: newest first. */
  events: AgentEvent[];
  /** One entry per hour of the window, oldest first. */
  messagesPerHour: HourlyMessages[];
}

/**
 * An agent's activity over the last `hours` hours, from its stored events (the console's timeline
 * and messages-per-hour chart). The hours are whole UTC hours ending with the current one. Another
 * user's agent, or an unknown id: 404.
 */
@injectable()
export class GetAgentActivity {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentEvents'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, agentId: string, hours: number): Promise<AgentActivity> {
    const now = this.clock.now();
    const to = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
    const from = new Date(to.getTime() - hours * HOUR_MS);
    const found = await this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) return null;
      return {
        events: await s.agentEvents.timeline(agentId, from, ACTIVITY_EVENTS_MAX),
        messagesPerHour: await s.agentEvents.messagesPerHour(agentId, from, hours),
      };
    });
    if (!found) throw new NotFoundError('Agent');
    return { from, to, ...found };
  }
}
