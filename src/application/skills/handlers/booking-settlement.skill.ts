import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { DomainError } from '../../../domain/shared/domain-error.js';
import { settle } from '../../../domain/skills/settlement.js';
import { NotFoundError } from '../../errors.js';
import type { Escrow } from '../../ports/escrow-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, iso, money, text } from './skill-inputs.js';

/** A booking's terms in major units (at most 2 decimals each). */
const booking = z.strictObject({ guarantee: money, backend: money, deposit: money });
const bookingId = text(100);

/** The user already holds an escrow for this booking. HTTP 409. */
export class EscrowExistsError extends DomainError {
  constructor(bookingId: string) {
    super('ESCROW_EXISTS', `An escrow for booking ${bookingId} already exists`, { bookingId });
  }
}

/**
 * booking-settlement: escrows of a booking's payout, stored per booking id. An escrow holds the
 * artist's payout (guarantee + backend, see domain/skills/settlement.ts) from `create_escrow`
 * until `release_funds` (held → released, once; releasing again changes nothing).
 */
@injectable()
export class BookingSettlementSkill implements SkillHandler {
  readonly slug = 'booking-settlement';
  readonly version = '1.0.0';
  readonly capabilities = ['payments'] as const;
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'escrows'>) {
    this.actions = [
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
      }),
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
      }),
      action({
        name: 'list',
        description: "List the user's booking escrows, oldest first.",
        input: z.strictObject({ action: z.literal('list') }),
        capabilities: [],
        run: async (ctx) => {
          const escrows = await uow.asUser(ctx.userId, (s) => s.escrows.list());
          return { escrows: escrows.map(present), count: escrows.length };
        },
      }),
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
      }),
      action({
        name: 'simulate_settlement',
        description: 'Compute a booking settlement without storing anything: payout = guarantee + backend; balance due = payout - deposit (a larger deposit is a refund due).',
        input: z.strictObject({ action: z.literal('simulate_settlement'), booking }),
        capabilities: [],
        run: async (_ctx, input) => ({
          settlement: { ...settle({ guaranteeCents: input.booking.guarantee, backendCents: input.booking.backend, depositCents: input.booking.deposit }), currency: 'USD' },
        }),
      }),
    ];
  }
}

const present = (e: Escrow) => ({
  bookingId: e.bookingId, status: e.status, amountCents: e.amountCents, guaranteeCents: e.guaranteeCents, backendCents: e.backendCents,
  depositCents: e.depositCents, currency: 'USD', createdAt: iso(e.createdAt), releasedAt: iso(e.releasedAt),
});
