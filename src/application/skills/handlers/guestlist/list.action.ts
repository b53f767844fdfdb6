import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id } from '../skill-inputs.js';
import { presentList, presentGuest } from './guestlist.shared.js';

/** The `list` action of guestlist. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'guestlists'> }) =>
  action({
    name: 'list',
    description: "With a listId, that guestlist and its guests; without, all the user's guestlists.",
    input: z.strictObject({ action: z.literal('list'), listId: id.optional() }),
    capabilities: [],
    run: async (ctx, input) =>
      uow.asUser(ctx.userId, async (s) => {
        if (input.listId === undefined) {
          const lists = await s.guestlists.lists();
          return { guestlists: lists.map(presentList), count: lists.length };
        }
        const list = await s.guestlists.getList(input.listId);
        if (!list) throw new NotFoundError('Guestlist');
        const guests = await s.guestlists.guests(list.id);
        return { guestlist: presentList(list), guests: guests.map(presentGuest), checkedIn: guests.filter((g) => g.checkedInAt).length };
      }),
  });
