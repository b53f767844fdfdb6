import { inject, injectable } from 'tsyringe';
import { provisionModels, type Agent, type AgentConfigObject, type ProvisionTier } from '../../domain/agents/agent.js';
import { AgentLimitReachedError, ModelNotProvisionableError, SubscriptionRequiredForAgentsError } from '../../domain/agents/agent.errors.js';
import { allowanceOf } from '../../domain/agents/agent-limits.js';
import { bestSubscription } from '../../domain/billing/profile-plan.js';
import { isSubscribed } from '../../domain/billing/subscription.js';
import type { Actor } from '../auth/actor.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { AGENT_SETTINGS, type AgentSettings } from '../ports/agent-settings.port.js';
import { newInstanceRecord } from './new-instance-record.js';

export interface ProvisionAgentInput {
  name: string;
  model?: string | undefined;
  config?: AgentConfigObject | undefined;
  tier?: ProvisionTier | undefined;
}

/** The provision job's kind and data: what the worker needs, decided here for the authenticated caller. */
export const PROVISION_AGENT_JOB = 'agent.provision';
export interface ProvisionJobData {
  agentId: string;
  userId: string;
  /** The instance's plan name: the best subscribed plan, `admin` for an admin without one. */
  plan: string;
  /** The instance's RAM cap from the allowance. */
  ramGb: number;
}

/**
 * POST /api/agents/provision. In one unit of work: take the user's provisioning lock, read the
 * subscriptions (subscribed or admin, else 402), count the agents against the plan's limit (429
 * with current and limit), insert the agent as `provisioning` (and the user's instance, also
 * `provisioning`, when it is their first) and send the `provision` job. The
 * lock makes the limit race-free (two requests at one below the limit: exactly one agent); the
 * job joins the transaction, so the agent and its job exist together or not at all.
 */
@injectable()
export class ProvisionAgent {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'subscriptions' | 'instances' | 'jobs'>,
    @inject(AGENT_SETTINGS) private readonly settings: AgentSettings,
    @inject(SECRET_BOX) private readonly secrets: SecretBox,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Actor, input: ProvisionAgentInput): Promise<Agent> {
    const allowed = provisionModels(this.settings.defaultModelId);
    const model = input.model ?? this.settings.defaultModelId;
    if (!allowed.includes(model)) throw new ModelNotProvisionableError(model, allowed);
    const admin = actor.role === 'admin';
    return this.uow.asUser(actor.userId, async (s) => {
      await s.agents.lockForProvisioning();
      const subscriptions = await s.subscriptions.list();
      const plans = subscriptions.flatMap((sub) => (sub.plan && isSubscribed(sub.status) ? [sub.plan] : []));
      const allowance = allowanceOf(plans, admin);
      if (!allowance) throw new SubscriptionRequiredForAgentsError();
      const current = await s.agents.count();
      if (current >= allowance.agents) throw new AgentLimitReachedError(current, allowance.agents);
      const agent = await s.agents.insert({ name: input.name, model, tier: input.tier ?? null, config: input.config ?? {} });
      const data: ProvisionJobData = {
        agentId: agent.id,
        userId: actor.userId,
        plan: bestSubscription(subscriptions)?.plan.plan ?? 'admin',
        ramGb: allowance.ramGb,
      };
      // the instance with the first agent: its plan, runtime version and URL answer from the first read
      await s.instances.insertIfMissing(newInstanceRecord(this.ids, this.secrets, this.settings, actor.userId, data).instance);
      await s.jobs.send({ queue: 'provision', kind: PROVISION_AGENT_JOB, data: { ...data } });
      return agent;
    });
  }
}
