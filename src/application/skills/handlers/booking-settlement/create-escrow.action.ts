import { z } from 'zod';
import { settle } from '../../../../domain/skills/settlement.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { booking, bookingId, EscrowExistsError, present } from './booking-settlement.shared.js';

/** The `create_escrow` action of booking-settlement. */
export const createEscrowAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'escrows'> }) =>
  action({
    name: 'create_escrow',
    description: "Hold a booking's payout (guarantee + backend) in escrow under the booking's id until the funds are released.",
    input: z.strictObject({ action: z.literal('create_escrow'), bookingId, booking }),
    capabilities: ['payments'],
    run: async (ctx, input) => {
      ctx.requireCapability('payments');
      const s = settle({ guaranteeCents: input.booking.guarantee, backendCents: input.booking.backend, depositCents: input.booking.deposit });
      const escrow = await uow.asUser(ctx.userId, (scope) =>
        scope.escrows.insert(ctx.userId, { bookingId: input.bookingId, guaranteeCents: s.guaranteeCents, backendCents: s.backendCents, depositCents: s.depositCents, amountCents: s.payoutCents }),
      );
      if (!escrow) throw new EscrowExistsError(input.bookingId);
      return { escrow: present(escrow) };
    },
  });
