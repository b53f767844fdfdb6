import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { instant, present } from './calendar.shared.js';

/** The `add` action of calendar. */
export const addAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'calendar'> }) =>
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
  });
