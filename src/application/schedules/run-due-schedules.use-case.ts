import { inject, injectable } from 'tsyringe';
import { decideTick, SCHEDULE_CHANNEL, SCHEDULE_RUNS_KEPT } from '../../domain/schedules/agent-schedule.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { AgentSchedule } from '../ports/agent-schedule-repository.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { CRON_CALENDAR, type CronCalendar } from '../ports/cron-calendar.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import type { AgentsSystemScope, AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { UNIT_OF_WORK, type SystemWork, type UserWork } from '../ports/unit-of-work.port.js';

/** Schedules read per round of a pass. */
export const SCHEDULE_BATCH = 200;
/** Rounds per pass at most: what is still due after them waits for the next minute's pass. */
export const SCHEDULE_ROUNDS = 20;
/** Ticks run side by side in a pass (each its own transaction, so its own pooled connection). */
export const SCHEDULE_LANES = 4;

export interface ScheduleRunResult {
  /** Ticks that sent their message. */
  sent: number;
  /** Ticks recorded as skipped (the agent was not running, or the tick was missed). */
  skipped: number;
  /** Schedules whose tick could not be run this pass (logged; still due, tried at the next pass). */
  failed: number;
}

/**
 * The worker's pass over the agents' schedules (decision 0446): every minute on the maintenance
 * queue, where pg-boss sends each minute's job once, to one worker. Passes may still overlap (one
 * that outlasts its minute, a retried job, a test running two), and the claim keeps them apart. For each due schedule, one transaction as its owner claims the row (`FOR UPDATE SKIP
 * LOCKED` while `next_run_at <= now`), decides the tick (decideTick: send to a running agent
 * whose previous tick's message is not still queued, else skipped), stores the message on channel
 * `schedule` and queues it in the agent's mailbox (the heartbeat's path: the stored message is announced to the agent's websockets, the answer is
 * made and metered by the worker running the agent, as for any message), records the run (one
 * row per tick: a tick recorded twice fails the transaction) and moves `next_run_at`. Claim,
 * message and record commit together, so however many workers run the pass at once, a tick sends
 * exactly one message, or none when the transaction fails (the tick stays due and is tried again).
 *
 * The next tick is the first after now: ticks that fell between (the workers were down, or a pass
 * came late) are passed over, never sent in a burst, and a tick run more than LATE_TICK_GRACE_MS
 * after its time is recorded as skipped (`missed`) rather than sent (decision 0447). A pass runs
 * rounds of SCHEDULE_BATCH, SCHEDULE_LANES ticks at a time, until nothing it has not tried is due:
 * a schedule is tried once a pass (its next tick, or a failed one, is the next pass's).
 */
@injectable()
export class RunDueSchedules {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AgentsSystemScope, 'dueAgentSchedules'> & UserWork<AgentsUserScope, 'agentSchedules' | 'agents' | 'agentMessages' | 'agentMailbox'>,
    @inject(CRON_CALENDAR) private readonly calendar: CronCalendar,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(): Promise<ScheduleRunResult> {
    const result: ScheduleRunResult = { sent: 0, skipped: 0, failed: 0 };
    // each schedule is tried once a pass: one that failed, or that another pass holds, waits for the next
    const seen = new Set<string>();
    for (let round = 0; round < SCHEDULE_ROUNDS; round++) {
      const due = (await this.uow.asSystem((s) => s.dueAgentSchedules.due(this.clock.now(), SCHEDULE_BATCH))).filter((d) => !seen.has(d.id));
      if (due.length === 0) break;
      for (const d of due) seen.add(d.id);
      // a few transactions side by side: each tick is a handful of round trips, mostly waiting
      let next = 0;
      const lane = async () => {
        for (let i = next++; i < due.length; i = next++) {
          const { id, userId } = due[i]!;
          try {
            const outcome = await this.runTick(userId, id);
            if (outcome) result[outcome] += 1;
          } catch (err) {
            // one schedule's failure must not stop the others; its tick stays due
            result.failed += 1;
            this.log.error({ err, userId, scheduleId: id }, 'a scheduled run could not be run');
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(SCHEDULE_LANES, due.length) }, lane));
    }
    if (result.sent + result.skipped + result.failed > 0) this.log.info({ ...result }, 'scheduled runs');
    return result;
  }

  /** Null when another worker claimed the tick first, or it is no longer due (deleted, already run). */
  private runTick(userId: UserId, scheduleId: string): Promise<'sent' | 'skipped' | null> {
    return this.uow.asUser(userId, async (s) => {
      const now = this.clock.now();
      const schedule = await s.agentSchedules.claimDue(scheduleId, now);
      if (!schedule) return null;
      // the schedule's agent exists: removing the agent removes its schedules
      const agent = await s.agents.get(schedule.agentId);
      const waiting = agent?.status === 'running' && (await s.agentSchedules.previousStillQueued(scheduleId));
      const decision = agent ? decideTick(agent.status, schedule.nextRunAt, now, waiting) : { kind: 'skip' as const, reason: 'the agent is gone' };
      let messageId: string | null = null;
      if (decision.kind === 'send') {
        const message = await s.agentMessages.append({ agentId: schedule.agentId, userId, role: 'user', content: schedule.content, channel: SCHEDULE_CHANNEL, sessionId: null });
        await s.agentMailbox.enqueue(message.id, schedule.agentId);
        messageId = message.id;
      }
      await s.agentSchedules.recordRun({
        scheduleId,
        dueAt: schedule.nextRunAt,
        outcome: decision.kind === 'send' ? 'sent' : 'skipped',
        reason: decision.kind === 'skip' ? decision.reason : null,
        messageId,
        ranAt: now,
      });
      await s.agentSchedules.advance(scheduleId, this.nextTick(schedule, now));
      await s.agentSchedules.pruneRuns(scheduleId, SCHEDULE_RUNS_KEPT);
      return decision.kind === 'send' ? 'sent' : 'skipped';
    });
  }

  /** The first tick after now (a claimed tick is due, so at or before now). */
  private nextTick(schedule: AgentSchedule, now: Date): Date {
    const reading = this.calendar.nextAfter(schedule.cron, schedule.timezone, now);
    // stored only after the same calendar read it: a schedule it no longer reads fails its tick, logged
    if (!reading.ok) throw new Error(`schedule ${schedule.id}: ${reading.field} ${reading.reason}`);
    return reading.next;
  }
}
