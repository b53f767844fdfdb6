import type { AgentStatus } from '../agents/agent-status.js';

/**
 * Scheduled runs of an agent (CONTRACT.md "scheduled runs"): a cron with a timezone that sends the
 * owner's `content` to the agent at each tick, as a message on the `schedule` channel.
 */

/** The channel a scheduled run's message is stored with (the history shows where it came from). */
export const SCHEDULE_CHANNEL = 'schedule';

/** The timezone of a schedule created without one. */
export const DEFAULT_SCHEDULE_TIMEZONE = 'UTC';

/** A scheduled message is a message like any other: the same bound as POST /api/chat's. */
export const SCHEDULE_CONTENT_MAX_CHARS = 32_000;

/**
 * A tick run later than this after its time is recorded as skipped, not sent (decision 0447): a
 * daily "good morning" sent at three in the afternoon after an outage is not what was asked for.
 * Longer than the worker's one-minute pass, so a pass that comes a little late still sends.
 */
export const LATE_TICK_GRACE_MS = 10 * 60_000;

/** Runs kept per schedule (the newest): enough to see what happened, bounded for a per-minute cron. */
export const SCHEDULE_RUNS_KEPT = 50;

/**
 * The named forms a cron may take instead of five fields. `@reboot` is not one (there is no boot
 * of a schedule), and nothing has a seconds field: a schedule ticks at most once a minute.
 */
export const CRON_ALIASES = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'] as const;

/**
 * Why a cron's shape is refused before it is evaluated, or null: five fields (minute, hour, day of
 * month, month, day of week) or one of CRON_ALIASES. A sixth (seconds) field would let a schedule
 * send a message every second; the minute is the bound (decision 0445).
 */
export function cronShapeProblem(cron: string): string | null {
  const text = cron.trim();
  if (text.startsWith('@')) return (CRON_ALIASES as readonly string[]).includes(text.toLowerCase()) ? null : `is not one of ${CRON_ALIASES.join(', ')}`;
  const fields = text.split(/\s+/).length;
  if (fields === 6) return 'has a seconds field: a schedule ticks at most once a minute, use five fields';
  if (fields !== 5) return 'must have five fields: minute hour day-of-month month day-of-week';
  return null;
}

/** What a tick does: send the message, or record it as skipped and why. */
export type TickDecision = { kind: 'send' } | { kind: 'skip'; reason: string };

/**
 * A tick of a running agent sends; any other agent's is skipped (a message to an agent that is not
 * running would wait in its mailbox until it next runs, a queue of stale ticks). A tick run more
 * than LATE_TICK_GRACE_MS after its time (the workers were down) is skipped as missed. A tick whose
 * schedule's previous message is still queued, not yet taken up by the agent, is skipped too: a
 * schedule keeps at most one message waiting, however slow the agent's answers.
 */
export function decideTick(agentStatus: AgentStatus, dueAt: Date, now: Date, previousStillQueued = false): TickDecision {
  if (now.getTime() - dueAt.getTime() > LATE_TICK_GRACE_MS) return { kind: 'skip', reason: 'missed: no worker ran the schedule at its time' };
  if (agentStatus !== 'running') return { kind: 'skip', reason: `the agent is ${agentStatus}` };
  if (previousStillQueued) return { kind: 'skip', reason: "the previous tick's message is still waiting for the agent" };
  return { kind: 'send' };
}
