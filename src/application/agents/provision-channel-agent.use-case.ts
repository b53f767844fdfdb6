import { inject, injectable } from 'tsyringe';
import { allowanceOf, type InstanceAllowance } from '../../domain/agents/agent-limits.js';
import { AgentLimitReachedError } from '../../domain/agents/agent.errors.js';
import { paymentBypassOf, requirePaidPlan, type Channel } from '../../domain/agents/channel-provisioning.js';
import { subdomainFor } from '../../domain/agents/instance.js';
import { requireChatSubscription } from '../../domain/ai/chat-access.js';
import type { AiProviderName } from '../../domain/ai/ai-model.js';
import { entitlementsOf } from '../../domain/billing/entitlements.js';
import { checkoutPlan } from '../../domain/billing/purchasable-plan.js';
import { isSubscribed } from '../../domain/billing/subscription.js';
import type { Actor } from '../auth/actor.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { channelSecretContext, type NewChannelProvisioning } from '../ports/channel-provisioning-repository.port.js';
import { LIVE_STREAMS, type LiveStreams } from '../ports/live-streams.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { sha256 } from '../shared/secret-tokens.js';
import { AGENT_SETTINGS, type AgentSettings } from '../ports/agent-settings.port.js';
import { instanceUrlFor } from './agent-urls.js';
import { newInstanceRecord } from './new-instance-record.js';
import { PROVISION_AGENT_JOB, type ProvisionJobData } from './provision-agent.use-case.js';

export interface ProvisionChannelAgentInput {
  /** At least one (the schema checks it). */
  channelTokens: Partial<Record<Channel, string>>;
  channelUserIdA?: string | undefined;
  aiProvider: AiProviderName;
  apiKey?: string | undefined;
  /** As sent: `free` or nothing is refused with 402 PAYMENT_REQUIRED. */
  plan?: string | undefined;
  email?: string | undefined;
  paymentSubscriptionId?: string | undefined;
}

export interface ProvisionChannelAgentResult {
  userId: string;
  subdomain: string;
  url: string;
  streamKey: string;
  liveStreamId: string;
}

/** The agent this path makes: named after its channels, on the platform's default model. */
const agentNameFor = (channels: readonly Channel[]) => `Channel agent (${channels.join(', ')})`;

/**
 * POST /api/provision: an agent bound to messaging channels, with a live stream. The paid-plan
 * check comes before authentication (the route calls `requirePaidPlan` first); here, for the
 * authenticated caller:
 * 1. payment: the admin/tester bypass only for the caller's own e-mail; else the subscription
 *    named by `paymentSubscriptionId` must be the caller's own (another user's id reads as absent),
 *    subscribed, and grant at least the requested plan's chat level (402 SUBSCRIPTION_REQUIRED);
 * 2. the live stream is created (a vendor call: outside the transaction; its failure is a 502
 *    and nothing is stored);
 * 3. in one unit of work, the same path as POST /api/agents/provision: the provisioning lock, the
 *    agent limit (429), the agent as `provisioning`, a channel provisioning row holding the
 *    channel tokens and the provider key sealed (context: owner and field) and the stream key's
 *    hash, and the `provision` job the worker already runs.
 */
@injectable()
export class ProvisionChannelAgent {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'subscriptions' | 'channelProvisionings' | 'instances' | 'jobs'>,
    @inject(LIVE_STREAMS) private readonly liveStreams: LiveStreams,
    @inject(SECRET_BOX) private readonly secrets: SecretBox,
    @inject(AGENT_SETTINGS) private readonly settings: AgentSettings,
    @inject(AUTH_SETTINGS) private readonly auth: AuthSettings,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Actor, input: ProvisionChannelAgentInput): Promise<ProvisionChannelAgentResult> {
    const plan = requirePaidPlan(input.plan);
    const bypass = paymentBypassOf(actor, input.email, this.auth.testerEmails);
    const userId = actor.userId;

    // Checked before the stream is created, so a caller who may not provision creates nothing.
    await this.uow.asUser(userId, (s) => this.allowance(s, bypass, plan, input.paymentSubscriptionId));
    const stream = await this.liveStreams.create(userId);

    const channels = (['A', 'B', 'C'] as const).filter((c) => input.channelTokens[c] !== undefined);
    const row: Omit<NewChannelProvisioning, 'agentId'> = {
      plan,
      aiProvider: input.aiProvider,
      channelUserIdA: input.channelUserIdA ?? null,
      channelTokens: Object.fromEntries(channels.map((c) => [c, this.secrets.seal(input.channelTokens[c]!, channelSecretContext(userId, `channelToken${c}`))])),
      apiKey: input.apiKey === undefined ? null : this.secrets.seal(input.apiKey, channelSecretContext(userId, 'apiKey')),
      liveStreamId: stream.liveStreamId,
      streamKeyHash: sha256(stream.streamKey),
    };

    await this.uow.asUser(userId, async (s) => {
      await s.agents.lockForProvisioning();
      // read again under the lock: the first read only spared the vendor call
      const locked = await this.allowance(s, bypass, plan, input.paymentSubscriptionId);
      const current = await s.agents.count();
      if (current >= locked.agents) throw new AgentLimitReachedError(current, locked.agents);
      const agent = await s.agents.insert({
        name: agentNameFor(channels),
        model: this.settings.defaultModelId,
        tier: null,
        config: { aiProvider: input.aiProvider, channels: [...channels] },
      });
      await s.channelProvisionings.insert({ ...row, agentId: agent.id });
      const data: ProvisionJobData = { agentId: agent.id, userId, plan: bypass === 'admin' ? 'admin' : plan, ramGb: locked.ramGb };
      await s.instances.insertIfMissing(newInstanceRecord(this.ids, this.secrets, this.settings, userId, data).instance);
      await s.jobs.send({ queue: 'provision', kind: PROVISION_AGENT_JOB, data: { ...data } });
    });
    return {
      userId,
      subdomain: subdomainFor(userId),
      url: instanceUrlFor(this.settings.appUrl, userId),
      streamKey: stream.streamKey,
      liveStreamId: stream.liveStreamId,
    };
  }

  /**
   * What the instance may hold: an admin's allowance; a tester's requested plan; a payer's
   * subscribed plans (as POST /api/agents/provision), once the named subscription passed.
   */
  private async allowance(
    s: Parameters<Parameters<UserWork<AgentsUserScope, 'subscriptions'>['asUser']>[1]>[0],
    bypass: 'admin' | 'tester' | null,
    plan: ReturnType<typeof requirePaidPlan>,
    subscriptionId: string | undefined,
  ): Promise<InstanceAllowance> {
    if (bypass === 'admin') return allowanceOf([], true)!;
    if (bypass === 'tester') return entitlementsOf(checkoutPlan(plan));
    const named = subscriptionId === undefined ? null : await s.subscriptions.get(subscriptionId);
    requireChatSubscription(named, plan);
    const subscriptions = await s.subscriptions.list();
    return allowanceOf(subscriptions.flatMap((sub) => (sub.plan && isSubscribed(sub.status) ? [sub.plan] : [])), false)!;
  }
}
