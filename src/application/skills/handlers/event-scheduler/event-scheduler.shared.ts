import { z } from 'zod';
import { isCalendarDate, isClockTime } from '../../../../domain/skills/calendar.js';
import type { ScheduledEvent } from '../../../ports/scheduled-event-repository.port.js';
import { action, iso, text } from '../skill-inputs.js';

export const schedule = z.strictObject({
  action: z.literal('schedule'),
  title: text(200),
  date: z.string().refine(isCalendarDate, 'must be a real calendar date YYYY-MM-DD'),
  time: z.string().refine(isClockTime, 'must be a 24-hour time HH:MM'),
  channels: z.array(text(50)).max(20),
});

export const list = z.strictObject({ action: z.literal('list') });

export const present = (e: ScheduledEvent) => ({ id: e.id, title: e.title, date: e.date, time: e.time, channels: e.channels, createdAt: iso(e.createdAt) });
