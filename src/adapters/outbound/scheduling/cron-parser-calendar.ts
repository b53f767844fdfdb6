import { CronExpressionParser } from 'cron-parser';
import type { CronCalendar, CronReading } from '../../../application/ports/cron-calendar.port.js';

/** The IANA name `timezone` resolves to (`utc` → `UTC`), or null when Intl knows no such zone. */
function resolveZone(timezone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * cron-parser 5 (pg-boss's own cron library) behind the CronCalendar port. The zone is checked by
 * Intl first: cron-parser reports an unknown zone only as an unreadable date. Its messages name the
 * fault ("Constraint error, got value 61 expected range 0-59"); they carry no input but the cron's.
 */
export class CronParserCalendar implements CronCalendar {
  nextAfter(cron: string, timezone: string, after: Date): CronReading {
    const zone = resolveZone(timezone);
    if (!zone) return { ok: false, field: 'timezone', reason: `is not an IANA timezone (e.g. UTC, Europe/Berlin)` };
    try {
      const next = CronExpressionParser.parse(cron.trim(), { tz: zone, currentDate: after, strict: false }).next().toDate();
      return { ok: true, timezone: zone, next };
    } catch (err) {
      const reason = err instanceof Error ? err.message.slice(0, 200) : 'cannot be read';
      return { ok: false, field: 'cron', reason: `cannot be read: ${reason}` };
    }
  }
}
