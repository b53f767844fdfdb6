import type { AgentSchedule, ScheduleRun } from '../../../../application/ports/agent-schedule-repository.port.js';

/** A schedule as CONTRACT.md "scheduled runs" lists it, field by field. */
export const scheduleBody = (s: AgentSchedule) => ({ id: s.id, cron: s.cron, timezone: s.timezone, content: s.content, nextRunAt: s.nextRunAt.toISOString() });

export const scheduleRunBody = (r: ScheduleRun) => ({
  dueAt: r.dueAt.toISOString(),
  outcome: r.outcome,
  reason: r.reason,
  messageId: r.messageId,
  ranAt: r.ranAt.toISOString(),
});
