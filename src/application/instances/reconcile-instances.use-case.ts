import { inject, injectable } from 'tsyringe';
import { DomainError } from '../../domain/shared/domain-error.js';
import { SecretUnreadableError } from '../billing/billing.errors.js';
import { NotFoundError } from '../errors.js';
import { AGENT_CHAT_SETTINGS, type AgentChatSettings } from '../ports/agent-chat-settings.port.js';
import { MAILBOX_FAILURE } from '../agents/mailbox-failure.js';
import type { UserId } from '../../domain/shared/ids.js';
import { AGENT_RUNTIME, type AgentRuntime } from '../ports/agent-runtime.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { INSTANCE_LEASES, type InstanceLeases } from '../ports/instance-leases.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';
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
 * 3. takes over instances marked `running` that no live worker holds (their worker died, or gave
 *    them up on a clean stop), starts them, and queues again the answers a gone worker had in progress.
 * A start that fails moves the instance to `error` (a `crashed` event with the reason).
 */
@injectable()
export class ReconcileInstances {
  private lastRenewal: number | null = null;

  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'agents' | 'instances' | 'agentEvents' | 'agentMailbox'>,
    @inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @inject(INSTANCE_LEASES) private readonly leases: InstanceLeases,
    @inject(InstanceRuntimeStarter) private readonly starter: InstanceRuntimeStarter,
    @inject(LocalInstances) private readonly local: LocalInstances,
    @inject(INSTANCE_SETTINGS) private readonly settings: InstanceSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
    @inject(AGENT_CHAT_SETTINGS) private readonly chat: Pick<AgentChatSettings, 'maxAttempts'>,
  ) {}

  /**
   * Renews this worker's leases and nothing else: the supervisor calls it while a reconcile still
   * waits on slow starts (a program's spawn on a loaded machine, many instances after a restart), so
   * those starts never let this worker's other leases lapse. A lapsed lease is taken over by another
   * worker while its program still runs here: two copies until the next reconcile stops this one.
   */
  async renewLeases(): Promise<void> {
    await this.leases.renew();
    this.lastRenewal = this.clock.now().getTime();
  }

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
    for (const { userId, leaseExpired } of await this.leases.orphans()) {
      if (!(await this.leases.acquire(userId))) continue;
      // a worker that stopped cleanly gave its leases up (the next start, or another worker, starts
      // them again as a matter of course); only a lease left to expire says a worker died
      if (leaseExpired) this.log.info({ userId, workerId: this.leases.workerId }, 'taking over an instance whose worker is gone');
      else this.log.debug({ userId, workerId: this.leases.workerId }, 'starting an instance its last worker released when it stopped');
      await this.ensureRunning(userId, true);
    }
  }

  private ensureRunning(userId: UserId, takenOver: boolean): Promise<void> {
    return this.local.serially(userId, async () => {
      if (this.runtime.isRunning(userId)) return;
      const loaded = await this.starter.load(userId).catch(async (err: unknown) => {
        // A token this worker cannot open (another ENCRYPTION_KEY than the one that sealed it) is
        // never fixed by trying again: said loudly and recorded on the instance, not left to retry silently.
        if (err instanceof SecretUnreadableError) await this.unreadableToken(userId);
        else if (!(err instanceof NotFoundError)) this.log.warn({ err, userId }, 'an instance could not be loaded');
        return null;
      });
      if (!loaded || loaded.instance.status !== 'running') {
        if (takenOver || !loaded) await this.leases.release(userId);
        return;
      }
      try {
        await this.starter.start(userId, loaded);
        if (takenOver) await this.requeueAnswersOfGoneWorker(userId);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        this.log.warn({ err, userId }, 'an instance marked running could not be started');
        await this.uow.asSystem((s) => applyInstanceMove(s, userId, 'crash', this.clock.now(), `start_failed: ${err.message}`));
        await this.leases.release(userId);
      }
    });
  }

  /**
   * The expired lease proves the previous worker gone: the answers it had in progress will never be
   * stored, so its claims are queued again now (their agents would otherwise stay silent until
   * AGENT_MAILBOX_STALE_MS). After the start, so this worker's mailbox takes them at once. A failure
   * here is left to the mailbox's sweep, which does the same for every instance this worker runs.
   */
  private async requeueAnswersOfGoneWorker(userId: UserId): Promise<void> {
    try {
      const r = await this.uow.asSystem((s) => s.agentMailbox.requeueClaimsOfOthers(userId, this.leases.workerId, this.chat.maxAttempts, MAILBOX_FAILURE.interrupted));
      if (r.requeued + r.failed > 0) this.log.warn({ userId, ...r }, 'answers the previous worker left unfinished were queued again');
    } catch (err) {
      this.log.warn({ err, userId }, 'answers the previous worker left unfinished could not be queued again yet');
    }
  }

  private async unreadableToken(userId: UserId): Promise<void> {
    const reason = 'gateway_token_unreadable: this worker cannot open the instance\'s sealed gateway token (its ENCRYPTION_KEY differs from the one that sealed it; every process must share ENCRYPTION_KEY)';
    this.log.error({ userId, workerId: this.leases.workerId }, `an instance cannot start here: ${reason}`);
    await this.uow.asSystem((s) => applyInstanceMove(s, userId, 'crash', this.clock.now(), reason));
  }
}
