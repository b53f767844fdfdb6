import { z } from 'zod';
import { SCHEDULE_CONTENT_MAX_CHARS } from '../../../../domain/schedules/agent-schedule.js';

/** Scheduled runs (CONTRACT.md "scheduled runs"): bodies, params and responses. */

/** The cron and timezone are read by the use case (400 VALIDATION_ERROR naming the field). */
export const newScheduleBody = z.object({
  cron: z.string().trim().min(1).max(200).describe('Five fields (minute hour day-of-month month day-of-week) or @hourly, @daily, @weekly, @monthly, @yearly; at most once a minute'),
  timezone: z.string().trim().min(1).max(64).optional().describe('IANA timezone the cron is read in; UTC when absent'),
  content: z.string().min(1).max(SCHEDULE_CONTENT_MAX_CHARS).describe('Sent to the agent at each tick, as a message on channel `schedule`'),
});

/** Any text: an id that is not a uuid names nothing, so it answers 404 like another user's. */
export const scheduleParams = z.object({ id: z.string().min(1).max(200), scheduleId: z.string().min(1).max(200) });

export const RUNS_PAGE_MAX = 50;
export const runsQuery = z.object({ limit: z.coerce.number().int().min(1).max(RUNS_PAGE_MAX).default(20) });

export const scheduleItem = z
  .object({
    id: z.string(),
    cron: z.string(),
    timezone: z.string(),
    content: z.string(),
    nextRunAt: z.string().describe('The next tick (ISO 8601, UTC)'),
  })
  .meta({ id: 'AgentSchedule' });

export const scheduleListResponse = z.object({ schedules: z.array(scheduleItem) });
export const createdScheduleResponse = z.object({ schedule: scheduleItem });
export const deletedScheduleResponse = z.object({ success: z.literal(true) });
export const scheduleRunsResponse = z.object({
  runs: z.array(
    z.object({
      dueAt: z.string().describe('The tick this run was for'),
      outcome: z.enum(['sent', 'skipped']),
      reason: z.string().nullable().describe('Why a tick was skipped: the agent was not running, or the tick was missed'),
      messageId: z.string().nullable().describe('The message a sent tick stored'),
      ranAt: z.string(),
    }),
  ),
});
