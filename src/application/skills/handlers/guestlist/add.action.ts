import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id, text } from '../skill-inputs.js';
import { GuestlistFullError, presentGuest } from './guestlist.shared.js';

/** The `add` action of guestlist. */
export const addAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'guestlists'> }) =>
  action({
    name: 'add',
    description: 'Add a guest to a guestlist while it has a free place.',
    input: z.strictObject({ action: z.literal('add'), listId: id, name: text(200), email: z.email().max(320).optional() }),
    capabilities: [],
    run: async (ctx, input) =>
      uow.asUser(ctx.userId, async (s) => {
        const list = await s.guestlists.getList(input.listId);
        if (!list) throw new NotFoundError('Guestlist');
        if (!(await s.guestlists.takePlace(list.id))) throw new GuestlistFullError(list.id, list.capacity);
        const guest = await s.guestlists.insertGuest(ctx.userId, { listId: list.id, name: input.name, email: input.email ?? null });
        return { guest: presentGuest(guest) };
      }),
  });
