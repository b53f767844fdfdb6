import { inject, injectable } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';
import { WORKER_IDENTITY, type WorkerIdentity } from '../ports/worker-identity.port.js';
import { AGENT_CHAT_SETTINGS, type AgentChatSettings } from '../ports/agent-chat-settings.port.js';
import { MAILBOX_FAILURE } from './mailbox-failure.js';

/** How many users one sweep looks at. */
const USERS_PER_SWEEP = 1_000;

/**
 * The mailbox worker's slow sweep (behind NOTIFY, and after a restart): the users with waiting
 * messages whose runtime this process runs (`isMine`: the ownership rule, AgentRuntime.isRunning).
 * For those, messages `working` under another worker's claim (that worker is gone: this one holds
 * the instance now) are queued again at once, and messages left `working` longer than `staleMs`
 * by an answer no longer in progress (a claim no worker named: made before claims were named) are
 * queued again too; either fails after `maxAttempts` claims.
 */
@injectable()
export class FindAgentMailboxWork {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'agentMailbox'>,
    @inject(AGENT_CHAT_SETTINGS) private readonly settings: AgentChatSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
    @inject(WORKER_IDENTITY) private readonly worker: WorkerIdentity,
  ) {}

  async execute(isMine: (userId: UserId) => boolean, inFlightAgents: readonly string[]): Promise<UserId[]> {
    const users = (await this.uow.asSystem((s) => s.agentMailbox.usersWithWork(USERS_PER_SWEEP))).filter(isMine);
    if (users.length === 0) return [];
    const before = new Date(this.clock.now().getTime() - this.settings.staleMs);
    await this.uow.asSystem(async (s) => {
      for (const userId of users) {
        // this worker runs the user's instance, so another worker's claim is a gone (or superseded) worker's
        const others = await s.agentMailbox.requeueClaimsOfOthers(userId, this.worker.workerId, this.settings.maxAttempts, MAILBOX_FAILURE.interrupted);
        const stale = await s.agentMailbox.recoverStale(userId, before, inFlightAgents, this.settings.maxAttempts, MAILBOX_FAILURE.interrupted);
        const r = { requeued: others.requeued + stale.requeued, failed: others.failed + stale.failed };
        if (r.requeued + r.failed > 0) this.log.warn({ userId, ...r }, 'recovered interrupted agent answers');
      }
    });
    return users;
  }
}
