import { inject, injectable } from 'tsyringe';
import { nextHeartbeatAfterSend, parseHeartbeatFrequency } from '../../domain/heartbeat/heartbeat-schedule.js';
import type { UserId } from '../../domain/shared/ids.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type SystemWork, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope, AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/**
 * What a running agent is sent at each heartbeat. It is a user message like any other (the
 * runtime answers it with the agent's own prompt, memory and history), so it says plainly that
 * nobody is waiting and asks for something short: every heartbeat costs the owner AI units.
 */
export const HEARTBEAT_MESSAGE =
  'Heartbeat: this is your scheduled check-in, not a message from a person. Review your memory and the recent conversation, and reply in one or two sentences with your status and anything the owner should act on.';

/** The channel the heartbeat's message is stored with (the history shows where it came from). */
export const HEARTBEAT_CHANNEL = 'heartbeat';

/** Users handled per run: a run is short, and what is left is still due at the next minute. */
export const HEARTBEAT_BATCH = 200;

export interface HeartbeatRunResult {
  /** Users whose heartbeat this run sent. */
  users: number;
  /** Messages queued (one per running agent). */
  sent: number;
  /** Agents skipped because they were not running (each recorded as a `heartbeat_skipped` event). */
  skipped: number;
}

/**
 * The scheduled heartbeat run (every minute, in worker processes). For each user whose enabled
 * heartbeat is due, one transaction as that user claims the heartbeat row (FOR UPDATE SKIP
 * LOCKED: a concurrent run skips it, and once this one commits it is no longer due), queues the
 * heartbeat message in the mailbox of each running agent (the same path as POST /api/chat; the
 * answer is not awaited, it lands in the agent's history) with a `heartbeat` event, records every agent that is not
 * running as a `heartbeat_skipped` event, and moves `lastHeartbeat` and `nextHeartbeat`. Claim,
 * messages and records commit together: a heartbeat is sent at most once and never half. A
 * skipped agent is not retried: the next heartbeat comes one period later, as for any other.
 */
@injectable()
export class SendDueHeartbeats {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'heartbeatSchedule'> & UserWork<AgentsUserScope, 'heartbeats' | 'agents' | 'agentMessages' | 'agentMailbox' | 'agentEventLog'>,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(): Promise<HeartbeatRunResult> {
    const due = await this.uow.asSystem((s) => s.heartbeatSchedule.dueUsers(this.clock.now(), HEARTBEAT_BATCH));
    const result: HeartbeatRunResult = { users: 0, sent: 0, skipped: 0 };
    for (const userId of due) {
      try {
        const one = await this.sendTo(userId);
        if (!one) continue;
        result.users += 1;
        result.sent += one.sent;
        result.skipped += one.skipped;
      } catch (err) {
        // one user's failure must not stop the others; theirs stays due and is tried next minute
        this.log.error({ err, userId }, 'a heartbeat could not be sent');
      }
    }
    if (result.users > 0) this.log.info({ ...result }, 'heartbeats sent');
    return result;
  }

  /** Null when another run claimed it first or it is no longer due. */
  private sendTo(userId: UserId): Promise<{ sent: number; skipped: number } | null> {
    return this.uow.asUser(userId, async (s) => {
      const now = this.clock.now();
      const heartbeat = await s.heartbeats.claimDue(now);
      if (!heartbeat) return null;
      let sent = 0;
      let skipped = 0;
      for (const agent of await s.agents.list()) {
        if (agent.status === 'running') {
          const message = await s.agentMessages.append({ agentId: agent.id, userId, role: 'user', content: HEARTBEAT_MESSAGE, channel: HEARTBEAT_CHANNEL, sessionId: null });
          await s.agentMailbox.enqueue(message.id, agent.id);
          await s.agentEventLog.append({ agentId: agent.id, userId, kind: 'heartbeat', durationMs: null, reason: null, at: now });
          sent += 1;
        } else {
          await s.agentEventLog.append({ agentId: agent.id, userId, kind: 'heartbeat_skipped', durationMs: null, reason: `the agent is ${agent.status}`, at: now });
          skipped += 1;
        }
      }
      await s.heartbeats.recordSent(now, nextHeartbeatAfterSend(parseHeartbeatFrequency(heartbeat.frequency), now));
      return { sent, skipped };
    });
  }
}
