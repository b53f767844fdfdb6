import { z } from 'zod';
import { settle } from '../../../../domain/skills/settlement.js';
import { action } from '../skill-inputs.js';
import { booking } from './booking-settlement.shared.js';

/** The `simulate_settlement` action of booking-settlement. */
export const simulateSettlementAction = () =>
  action({
    name: 'simulate_settlement',
    description: 'Compute a booking settlement without storing anything: payout = guarantee + backend; balance due = payout - deposit (a larger deposit is a refund due).',
    input: z.strictObject({ action: z.literal('simulate_settlement'), booking }),
    capabilities: [],
    run: async (_ctx, input) => ({
      settlement: { ...settle({ guaranteeCents: input.booking.guarantee, backendCents: input.booking.backend, depositCents: input.booking.deposit }), currency: 'USD' },
    }),
  });
