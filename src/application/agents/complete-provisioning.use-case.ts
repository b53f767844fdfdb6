import { inject, injectable } from 'tsyringe';
import { ramCapBytes } from '../../domain/agents/agent-limits.js';
import { transition } from '../../domain/agents/agent-transition.js';
import { subdomainFor } from '../../domain/agents/instance.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import { asUserId, type UserId } from '../../domain/shared/ids.js';
import { AGENT_RUNTIME, type AgentRuntime } from '../ports/agent-runtime.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';
import { AGENT_SETTINGS, instanceUrlFor, type AgentSettings } from './agent-settings.js';
import type { ProvisionJobData } from './provision-agent.use-case.js';

/** The gateway token's sealing context: a sealed copy moved to another user's row is unreadable. */
export const gatewayTokenContext = (userId: string) => `gateway-token:${userId}`;

export type ProvisionOutcome = 'running' | 'error' | 'skipped' | 'ignored';

/**
 * The `provision` job: brings the user's instance up and moves the agent to `running`
 * (event `provisioned`, with the time since the request) or `error` (event `provision_failed`,
 * with the reason). Idempotent: an agent that is absent or no longer `provisioning` is left alone
 * (`skipped`), and a result arriving after the agent moved on is ignored by the state machine.
 *
 * Creates the instance row when missing (subdomain, URL, plan, runtime version, and a gateway
 * token stored only sealed and as a sha256 hash), then starts or joins the runtime outside any
 * transaction. A runtime that cannot start (a domain error) is final: the agent ends in `error`.
 * Anything else (the database) throws, and pg-boss retries the job.
 */
@injectable()
export class CompleteProvisioning {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<'agents' | 'instances' | 'agentEvents'>,
    @inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @inject(SECRET_BOX) private readonly secrets: SecretBox,
    @inject(AGENT_SETTINGS) private readonly settings: AgentSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(job: ProvisionJobData): Promise<ProvisionOutcome> {
    const userId = asUserId(job.userId);
    const agent = await this.uow.asSystem((s) => s.agents.get(job.agentId));
    if (!agent || agent.userId !== userId || agent.status !== 'provisioning') return 'skipped';

    const gatewayToken = await this.ensureInstance(userId, job);
    const wasRunning = this.runtime.isRunning(userId);
    try {
      await this.runtime.start({
        userId,
        runtimeVersion: this.settings.runtimeVersion,
        ramCapBytes: ramCapBytes({ agents: 0, skills: 0, ramGb: job.ramGb }),
        gatewayToken,
        serviceUrl: this.settings.appUrl,
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      this.log.warn({ err, agentId: agent.id, userId }, 'agent provisioning failed: the runtime did not start');
      return this.finish(userId, agent.id, { ok: false, reason: err.message });
    }
    return this.finish(userId, agent.id, { ok: true, startedNow: !wasRunning });
  }

  /** The instance row, created on first use; returns its gateway token, opened from the sealed copy. */
  private async ensureInstance(userId: UserId, job: ProvisionJobData): Promise<string> {
    return this.uow.asSystem(async (s) => {
      const existing = await s.instances.lock(userId);
      if (existing) return this.secrets.open(existing.gatewayToken, gatewayTokenContext(userId));
      const token = `gw_${newSecretToken()}`;
      const inserted = await s.instances.insert({
        userId,
        status: 'provisioning',
        startedAt: null,
        subdomain: subdomainFor(userId),
        url: instanceUrlFor(this.settings.appUrl, userId),
        plan: job.plan,
        runtimeVersion: this.settings.runtimeVersion,
        gatewayToken: { sealed: this.secrets.seal(token, gatewayTokenContext(userId)), hash: sha256(token) },
      });
      if (inserted) return token;
      // a concurrent job made it first: use its token
      const made = await s.instances.lock(userId);
      return this.secrets.open(made!.gatewayToken, gatewayTokenContext(userId));
    });
  }

  private finish(userId: UserId, agentId: string, result: { ok: true; startedNow: boolean } | { ok: false; reason: string }): Promise<ProvisionOutcome> {
    return this.uow.asSystem(async (s) => {
      const agent = await s.agents.lock(agentId);
      if (!agent) return 'skipped';
      const move = transition(agent.status, result.ok ? 'deployed' : 'deploymentFailed');
      if (move.kind === 'ignored') return 'ignored';
      const now = this.clock.now();
      await s.agents.setStatus(agentId, move.to);
      await s.agentEvents.append({
        agentId,
        userId,
        kind: result.ok ? 'provisioned' : 'provision_failed',
        durationMs: Math.max(0, now.getTime() - agent.createdAt.getTime()),
        reason: result.ok ? null : result.reason,
        at: now,
      });
      const instance = await s.instances.lock(userId);
      if (instance && result.ok && (result.startedNow || instance.status !== 'running')) {
        await s.instances.setState(userId, { status: 'running', startedAt: result.startedNow || !instance.startedAt ? now : instance.startedAt });
      } else if (instance && !result.ok && instance.status === 'provisioning') {
        await s.instances.setState(userId, { status: 'error', startedAt: instance.startedAt });
      }
      return move.to === 'running' ? 'running' : 'error';
    });
  }
}
