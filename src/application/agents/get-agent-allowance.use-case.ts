import { inject, injectable } from 'tsyringe';
import { provisionModels } from '../../domain/agents/agent.js';
import { allowanceOf } from '../../domain/agents/agent-limits.js';
import { isSubscribed } from '../../domain/billing/subscription.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { AGENT_SETTINGS, type AgentSettings } from '../ports/agent-settings.port.js';

export interface AgentAllowance {
  /** The caller's agents now. */
  current: number;
  /** What their subscribed plans allow (the admin limit for an admin); null with no subscribed plan (provisioning answers 402). */
  limit: number | null;
  /** The models an agent can be provisioned with, the default first (CONTRACT.md section 7 "provision models"). */
  models: readonly string[];
  defaultModel: string;
}

/**
 * GET /api/agents/allowance: what POST /api/agents/provision would allow the caller, read the
 * same way (subscribed plans, CONTRACT.md section 5's table, the admin limit), so a client can
 * say "N of M agents" and offer the right models before it provisions.
 */
@injectable()
export class GetAgentAllowance {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'subscriptions'>,
    @inject(AGENT_SETTINGS) private readonly settings: AgentSettings,
  ) {}

  async execute(actor: Actor): Promise<AgentAllowance> {
    const { current, limit } = await this.uow.asUser(actor.userId, async (s) => {
      const subscriptions = await s.subscriptions.list();
      const plans = subscriptions.flatMap((sub) => (sub.plan && isSubscribed(sub.status) ? [sub.plan] : []));
      const allowance = allowanceOf(plans, actor.role === 'admin');
      return { current: await s.agents.count(), limit: allowance?.agents ?? null };
    });
    return { current, limit, models: provisionModels(this.settings.defaultModelId), defaultModel: this.settings.defaultModelId };
  }
}
