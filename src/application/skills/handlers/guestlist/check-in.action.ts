import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id } from '../skill-inputs.js';
import { presentGuest } from './guestlist.shared.js';

/** The `check_in` action of guestlist. */
export const checkInAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'guestlists'> }) =>
  action({
    name: 'check_in',
    description: 'Check a guest in at the door; checking in again keeps the first time.',
    input: z.strictObject({ action: z.literal('check_in'), listId: id, guestId: id }),
    capabilities: [],
    run: async (ctx, input) =>
      uow.asUser(ctx.userId, async (s) => {
        const list = await s.guestlists.getList(input.listId);
        const result = list ? await s.guestlists.checkIn(list.id, input.guestId) : null;
        if (!result) throw new NotFoundError('Guest');
        return { guest: presentGuest(result.guest), alreadyCheckedIn: result.already };
      }),
  });
