import type { UserId } from '../../domain/shared/ids.js';

/** A stored schedule (CONTRACT.md "scheduled runs"). */
export interface AgentSchedule {
  id: string;
  agentId: string;
  userId: UserId;
  /** As given (five fields or an alias). */
  cron: string;
  /** IANA name, as the calendar resolved it (`utc` is stored `UTC`). */
  timezone: string;
  content: string;
  /** The next tick still to run. */
  nextRunAt: Date;
  createdAt: Date;
}

export type NewAgentSchedule = Omit<AgentSchedule, 'userId' | 'createdAt'>;

/** One tick that was run: sent (`messageId`) or skipped (`reason`). */
export interface ScheduleRun {
  scheduleId: string;
  dueAt: Date;
  outcome: 'sent' | 'skipped';
  reason: string | null;
  messageId: string | null;
  ranAt: Date;
}

/** The acting user's schedules and their runs (user unit of work; RLS: their own only). */
export interface AgentScheduleRepository {
  /** The agent's schedules, oldest first (none for another user's agent). */
  listForAgent(agentId: string): Promise<AgentSchedule[]>;
  /**
   * Stores the schedule unless the agent already has `limit` or more: serialised per agent (a
   * transaction-scoped lock held until the unit of work ends), so two concurrent adds count one
   * after the other and the bound holds. `full` carries the count found.
   */
  addWithin(schedule: NewAgentSchedule, limit: number): Promise<{ added: AgentSchedule } | { full: number }>;
  /** Deletes one of the agent's schedules (its runs go with it); false when absent or not this agent's. */
  remove(agentId: string, scheduleId: string): Promise<boolean>;
  /**
   * The schedule when its tick is due at `now`, locked until the unit of work ends (`FOR UPDATE
   * SKIP LOCKED`): a concurrent run gets null and sends nothing, and once this one commits with its
   * moved `nextRunAt` (advance) the tick is no longer due. Null when not due, locked or absent.
   */
  claimDue(scheduleId: string, now: Date): Promise<AgentSchedule | null>;
  /** Moves a claimed schedule's next tick. */
  advance(scheduleId: string, next: Date): Promise<void>;
  /**
   * Records a run. At most one per tick: a second record of the same (schedule, tick) fails (the
   * primary key), and with it the unit of work that would have sent the tick twice.
   */
  recordRun(run: ScheduleRun): Promise<void>;
  /** Whether a message one of the schedule's kept runs sent is still queued in the mailbox (not yet taken up). */
  previousStillQueued(scheduleId: string): Promise<boolean>;
  /** Deletes the schedule's runs but the newest `keep`. */
  pruneRuns(scheduleId: string, keep: number): Promise<void>;
  /** The schedule's runs, newest first, at most `limit`. */
  listRuns(scheduleId: string, limit: number): Promise<ScheduleRun[]>;
}

/** What is due (system unit of work: the worker's pass). */
export interface DueAgentSchedules {
  /** Schedules whose tick is due at `now`, the most overdue first, at most `limit`. */
  due(now: Date, limit: number): Promise<{ id: string; userId: UserId }[]>;
}
