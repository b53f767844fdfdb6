import { inject, injectable } from 'tsyringe';
import { DomainError } from '../../domain/shared/domain-error.js';
import type { UserId } from '../../domain/shared/ids.js';
import { AGENT_RUNTIME, type AgentRuntime } from '../ports/agent-runtime.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { INSTANCE_LEASES, type InstanceLeases } from '../ports/instance-leases.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import { applyInstanceMove } from './instance-moves.js';
import { INSTANCE_SETTINGS, type InstanceSettings } from '../ports/instance-settings.port.js';
import { InstanceRuntimeStarter } from './instance-runtime-starter.js';
import { LocalInstances } from './local-instances.js';

/**
 * One heartbeat of a worker (at boot and every INSTANCE_HEARTBEAT_MS):
 * 1. renews this worker's leases; a runtime whose lease was lost is stopped (another worker owns
 *    it now), and when renewals keep failing for a whole lease period every runtime is stopped:
 *    a worker never runs an instance it does not hold;
 * 2. starts the runtime of every held instance marked `running` that has none here;
 * 3. takes over instances marked `running` whose lease expired (their worker died) and starts them.
 * A start that fails moves the instance to `error` (a `crashed` event with the reason).
 */
@injectable()
export class ReconcileInstances {
  private lastRenewal: number | null = null;

  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<'agents' | 'instances' | 'agentEvents'>,
    @inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @inject(INSTANCE_LEASES) private readonly leases: InstanceLeases,
    @inject(InstanceRuntimeStarter) private readonly starter: InstanceRuntimeStarter,
    @inject(LocalInstances) private readonly local: LocalInstances,
    @inject(INSTANCE_SETTINGS) private readonly settings: InstanceSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(): Promise<void> {
    let held: UserId[];
    try {
      held = await this.leases.renew();
      this.lastRenewal = this.clock.now().getTime();
    } catch (err) {
      this.log.warn({ err }, 'lease renewal failed');
      if (this.lastRenewal === null || this.clock.now().getTime() - this.lastRenewal >= this.settings.leaseMs) {
        for (const userId of this.local.all()) await this.local.serially(userId, () => this.starter.stop(userId)).catch(() => {});
      }
      return;
    }
    const heldSet = new Set(held);
    for (const userId of this.local.all()) {
      if (heldSet.has(userId)) continue;
      this.log.warn({ userId }, 'lease lost: stopping the runtime another worker now owns');
      await this.local.serially(userId, () => this.starter.stop(userId));
    }
    for (const userId of held) await this.ensureRunning(userId, false);
    for (const userId of await this.leases.orphans()) {
      if (!(await this.leases.acquire(userId))) continue;
      this.log.info({ userId, workerId: this.leases.workerId }, 'taking over an instance whose worker is gone');
      await this.ensureRunning(userId, true);
    }
  }

  private ensureRunning(userId: UserId, takenOver: boolean): Promise<void> {
    return this.local.serially(userId, async () => {
      if (this.runtime.isRunning(userId)) return;
      const loaded = await this.starter.load(userId).catch(() => null);
      if (!loaded || loaded.instance.status !== 'running') {
        if (takenOver || !loaded) await this.leases.release(userId);
        return;
      }
      try {
        await this.starter.start(userId, loaded);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        this.log.warn({ err, userId }, 'an instance marked running could not be started');
        await this.uow.asSystem((s) => applyInstanceMove(s, userId, 'crash', this.clock.now(), `start_failed: ${err.message}`));
        await this.leases.release(userId);
      }
    });
  }
}
