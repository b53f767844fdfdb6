import { inject, injectable } from 'tsyringe';
import { transition } from '../../domain/agents/agent-transition.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import { asUserId, type UserId } from '../../domain/shared/ids.js';
import { InstanceCommandFailedError } from '../instances/instance-access.js';
import { InstanceRuntimeStarter } from '../instances/instance-runtime-starter.js';
import { INSTANCE_SETTINGS, type InstanceSettings } from '../ports/instance-settings.port.js';
import { LocalInstances } from '../instances/local-instances.js';
import { AGENT_RUNTIME, type AgentRuntime } from '../ports/agent-runtime.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { INSTANCE_COMMANDS, type InstanceCommands } from '../ports/instance-commands.port.js';
import { INSTANCE_LEASES, type InstanceLeases } from '../ports/instance-leases.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { AGENT_SETTINGS, type AgentSettings } from '../ports/agent-settings.port.js';
import { gatewayTokenContext } from './gateway-token.js';
import { newInstanceRecord } from './new-instance-record.js';
import type { ProvisionJobData } from './provision-agent.use-case.js';

export { gatewayTokenContext };

/** The owner did not answer the provision job's `join` in time: not final, pg-boss retries the job. */
class OwnerDidNotAnswer extends Error {}

export type ProvisionOutcome = 'running' | 'error' | 'skipped' | 'ignored';

/**
 * The `provision` job: brings the user's instance up and moves the agent to `running`
 * (event `provisioned`, with the time since the request) or `error` (event `provision_failed`,
 * with the reason). Idempotent: an agent that is absent or no longer `provisioning` is left alone
 * (`skipped`), and a result arriving after the agent moved on is ignored by the state machine.
 *
 * The instance row is made with the user's first agent (ProvisionAgent); it is created here only
 * when missing (a job queued before that), then the job takes the instance's lease and starts or
 * joins the runtime here, outside any transaction. When another live worker holds the lease,
 * that worker runs the instance: the job asks it through the command table (`join`) and waits
 * for its answer, as an api process would; no answer in time throws, and pg-boss retries. A runtime that cannot start (a domain error) is final: the agent ends in `error`.
 * Anything else (the database) throws, and pg-boss retries the job.
 */
@injectable()
export class CompleteProvisioning {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'agents' | 'instances' | 'agentEvents'>,
    @inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @inject(SECRET_BOX) private readonly secrets: SecretBox,
    @inject(AGENT_SETTINGS) private readonly settings: AgentSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
    @inject(INSTANCE_LEASES) private readonly leases: InstanceLeases,
    @inject(INSTANCE_COMMANDS) private readonly commands: InstanceCommands,
    @inject(INSTANCE_SETTINGS) private readonly instanceSettings: InstanceSettings,
    @inject(InstanceRuntimeStarter) private readonly starter: InstanceRuntimeStarter,
    @inject(LocalInstances) private readonly local: LocalInstances,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(job: ProvisionJobData): Promise<ProvisionOutcome> {
    const userId = asUserId(job.userId);
    const agent = await this.uow.asSystem((s) => s.agents.get(job.agentId));
    if (!agent || agent.userId !== userId || agent.status !== 'provisioning') return 'skipped';

    const gatewayToken = await this.ensureInstance(userId, job);
    let startedNow = false;
    try {
      if (await this.leases.acquire(userId)) {
        startedNow = await this.local.serially(userId, async () => {
          const wasRunning = this.runtime.isRunning(userId);
          await this.starter.start(userId, { token: gatewayToken, ramGb: job.ramGb });
          return !wasRunning;
        });
      } else {
        const answer = await this.commands.request(userId, 'join', this.instanceSettings.commandTimeoutMs);
        if (!answer) throw new OwnerDidNotAnswer(`the worker owning instance ${userId} did not answer in time`);
        if (!answer.ok) throw new InstanceCommandFailedError(answer.code, answer.message);
      }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      this.log.warn({ err, agentId: agent.id, userId }, 'agent provisioning failed: the runtime did not start');
      if (!this.runtime.isRunning(userId)) await this.leases.release(userId);
      return this.finish(userId, agent.id, { ok: false, reason: err.message });
    }
    return this.finish(userId, agent.id, { ok: true, startedNow });
  }

  /** The instance row, created on first use; returns its gateway token, opened from the sealed copy. */
  private async ensureInstance(userId: UserId, job: ProvisionJobData): Promise<string> {
    return this.uow.asSystem(async (s) => {
      const existing = await s.instances.lock(userId);
      if (existing) {
        if (existing.ramGb !== job.ramGb) await s.instances.setRamGb(userId, job.ramGb);
        return this.secrets.open(existing.gatewayToken, gatewayTokenContext(userId));
      }
      // made with the agent since instances are; missing only for a job queued before that
      const { token, instance } = newInstanceRecord(this.ids, this.secrets, this.settings, userId, job);
      if (await s.instances.insert(instance)) return token;
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
