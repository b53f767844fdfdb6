const DAY_MS = 86_400_000;

/** UTC starts of the day, the ISO week (Monday) and the month `now` falls in, and of the month before. */
export function calendarStarts(now: Date): { day: Date; week: Date; month: Date; previousMonth: Date } {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const week = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const previousMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { day, week, month, previousMonth };
}
