import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { CalendarEntry } from '../../ports/calendar-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, iso, text } from './skill-inputs.js';

/** An instant with its offset (2027-03-01T21:30:00Z or +01:00), so no entry depends on the server's time zone. */
const instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** calendar: the user's stored calendar entries (start and end instants); `list` shows those overlapping a range. */
@injectable()
export class CalendarSkill implements SkillHandler {
  readonly slug = 'calendar';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'calendar'>) {
    this.actions = [
      action({
        name: 'add',
        description: 'Add a calendar entry from start to end (ISO 8601 date-times with offset), with optional notes.',
        input: z
          .object({ action: z.literal('add'), title: text(200), start: instant, end: instant, notes: text(2000).optional() })
          .refine((e) => e.end > e.start, { message: 'end must be after start', path: ['end'] }),
        capabilities: [],
        run: async (ctx, input) => {
          const entry = await uow.asUser(ctx.userId, (s) => s.calendar.insert(ctx.userId, { title: input.title, startsAt: input.start, endsAt: input.end, notes: input.notes ?? null }));
          return { entry: present(entry) };
        },
      }),
      action({
        name: 'list',
        description: 'List calendar entries overlapping the range from..to (either optional), soonest first.',
        input: z.strictObject({ action: z.literal('list'), from: instant.optional(), to: instant.optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          const entries = await uow.asUser(ctx.userId, (s) => s.calendar.list({ ...(input.from ? { from: input.from } : {}), ...(input.to ? { to: input.to } : {}) }));
          return { entries: entries.map(present), count: entries.length };
        },
      }),
    ];
  }
}

const present = (e: CalendarEntry) => ({ id: e.id, title: e.title, start: iso(e.startsAt), end: iso(e.endsAt), notes: e.notes, createdAt: iso(e.createdAt) });
