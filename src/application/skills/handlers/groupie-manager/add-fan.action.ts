import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { count, present } from './groupie-manager.shared.js';

/** The `add_fan` action of groupie-manager. */
export const addFanAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'fans'> }) =>
  action({
    name: 'add_fan',
    description: 'Add a fan with their activity: shows attended, purchases and streams.',
    input: z.strictObject({ action: z.literal('add_fan'), name: text(200), email: z.email().max(320).optional(), city: text(100).optional(), showsAttended: count, purchases: count, streams: count }),
    capabilities: [],
    run: async (ctx, input) => {
      const fan = await uow.asUser(ctx.userId, (s) =>
        s.fans.insert(ctx.userId, { name: input.name, email: input.email ?? null, city: input.city ?? null, showsAttended: input.showsAttended, purchases: input.purchases, streams: input.streams }),
      );
      return { fan: present(fan) };
    },
  });
