import { inject, injectable } from 'tsyringe';
import { ramCapBytes } from '../../domain/agents/agent-limits.js';
import type { Instance } from '../../domain/agents/instance.js';
import type { UserId } from '../../domain/shared/ids.js';
import { AGENT_SETTINGS, type AgentSettings } from '../ports/agent-settings.port.js';
import { gatewayTokenContext } from '../agents/gateway-token.js';
import { NotFoundError } from '../errors.js';
import { AGENT_RUNTIME, type AgentRuntime } from '../ports/agent-runtime.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';
import { LocalInstances } from './local-instances.js';

/**
 * Starts (or joins) a user's runtime on this worker from the stored instance: its plan's RAM cap
 * and its gateway token, opened from the sealed copy (or `token`, a new one not stored yet). The
 * caller holds the instance's lease and runs inside LocalInstances.serially.
 */
@injectable()
export class InstanceRuntimeStarter {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'instances'>,
    @inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @inject(SECRET_BOX) private readonly secrets: SecretBox,
    @inject(AGENT_SETTINGS) private readonly settings: AgentSettings,
    @inject(LocalInstances) private readonly local: LocalInstances,
  ) {}

  /** The instance as stored; NotFoundError when the user has none. */
  async load(userId: UserId): Promise<{ instance: Instance; token: string; ramGb: number }> {
    const row = await this.uow.asSystem((s) => s.instances.lock(userId));
    if (!row) throw new NotFoundError('Instance');
    const { gatewayToken, ramGb, ...instance } = row;
    return { instance, token: this.secrets.open(gatewayToken, gatewayTokenContext(userId)), ramGb };
  }

  /** Throws the runtime's RuntimeUnavailableError when it cannot start. */
  async start(userId: UserId, loaded: { token: string; ramGb: number }): Promise<void> {
    await this.runtime.start({
      userId,
      runtimeVersion: this.settings.runtimeVersion,
      ramCapBytes: ramCapBytes({ agents: 0, skills: 0, ramGb: loaded.ramGb }),
      gatewayToken: loaded.token,
      serviceUrl: this.settings.serviceUrl,
    });
    this.local.markStarted(userId);
  }

  async stop(userId: UserId): Promise<void> {
    await this.runtime.stop(userId);
    this.local.markStopped(userId);
  }
}
