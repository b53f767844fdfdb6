import type { InjectionToken } from 'tsyringe';

/** A cron and timezone read by the calendar: the resolved zone and the next tick, or what is wrong. */
export type CronReading =
  | { ok: true; timezone: string; next: Date }
  | { ok: false; field: 'cron' | 'timezone'; reason: string };

/**
 * Cron arithmetic (the cron-parser library pg-boss evaluates its own schedules with): pure, no
 * I/O, the same answer in every process. Clock changes are the library's: a tick in the hour a
 * spring change skips runs an hour later that day, one in the autumn's repeated hour runs once.
 */
export interface CronCalendar {
  /** The first tick of `cron` in the IANA `timezone` strictly after `after`, or why the pair is not a schedule. */
  nextAfter(cron: string, timezone: string, after: Date): CronReading;
}
export const CRON_CALENDAR: InjectionToken<CronCalendar> = Symbol('CronCalendar');
