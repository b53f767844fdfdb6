import { z } from 'zod';
import type { CalendarEntry } from '../../../ports/calendar-repository.port.js';
import { iso } from '../skill-inputs.js';

/** An instant with its offset (2027-03-01T21:30:00Z or +01:00), so no entry depends on the server's time zone. */
export const instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const present = (e: CalendarEntry) => ({ id: e.id, title: e.title, start: iso(e.startsAt), end: iso(e.endsAt), notes: e.notes, createdAt: iso(e.createdAt) });
