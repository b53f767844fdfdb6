import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { booking, bookingId, present } from './booking-settlement.shared.js';

/** The `get` action of booking-settlement. */
export const getAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'escrows'> }) =>
  action({
    name: 'get',
    description: 'Get the escrow of one booking by its bookingId.',
    input: z.strictObject({ action: z.literal('get'), bookingId }),
    capabilities: [],
    run: async (ctx, input) => {
      const escrow = await uow.asUser(ctx.userId, (s) => s.escrows.get(input.bookingId));
      if (!escrow) throw new NotFoundError('Escrow');
      return { escrow: present(escrow) };
    },
  });
