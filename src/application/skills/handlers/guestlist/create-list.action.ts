import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { presentList } from './guestlist.shared.js';

/** The `create_list` action of guestlist. */
export const createListAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'guestlists'> }) =>
  action({
    name: 'create_list',
    description: 'Create a guestlist with a name and a capacity (the most guests it holds).',
    input: z.strictObject({ action: z.literal('create_list'), name: text(200), capacity: z.number().int().positive().max(1_000_000) }),
    capabilities: [],
    run: async (ctx, input) => ({ guestlist: presentList(await uow.asUser(ctx.userId, (s) => s.guestlists.insertList(ctx.userId, input))) }),
  });
