import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id } from '../skill-inputs.js';

/** The `remove` action of guestlist. */
export const removeAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'guestlists'> }) =>
  action({
    name: 'remove',
    description: 'Remove a guest from a guestlist, freeing the place.',
    input: z.strictObject({ action: z.literal('remove'), listId: id, guestId: id }),
    capabilities: [],
    run: async (ctx, input) =>
      uow.asUser(ctx.userId, async (s) => {
        const list = await s.guestlists.getList(input.listId);
        if (!list || !(await s.guestlists.removeGuest(list.id, input.guestId))) throw new NotFoundError('Guest');
        return { removed: true, guestId: input.guestId };
      }),
  });
