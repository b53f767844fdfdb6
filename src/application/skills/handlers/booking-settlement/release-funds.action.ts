import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { booking, bookingId, present } from './booking-settlement.shared.js';

/** The `release_funds` action of booking-settlement. */
export const releaseFundsAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'escrows'> }) =>
  action({
    name: 'release_funds',
    description: "Release a booking's escrowed payout to the artist; releasing an already released escrow changes nothing.",
    input: z.strictObject({ action: z.literal('release_funds'), bookingId }),
    capabilities: ['payments'],
    run: async (ctx, input) => {
      ctx.requireCapability('payments');
      const result = await uow.asUser(ctx.userId, (s) => s.escrows.release(input.bookingId));
      if (!result) throw new NotFoundError('Escrow');
      return { escrow: present(result.escrow), alreadyReleased: !result.released };
    },
  });
