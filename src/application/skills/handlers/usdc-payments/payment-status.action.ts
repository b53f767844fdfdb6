import { z } from 'zod';
import type { UserWallets } from '../../../ports/user-wallets.port.js';
import { defineAction } from '../define-action.js';
import { idempotencyKey } from './usdc-payments.shared.js';

/** The `payment_status` action of usdc-payments. */
export const paymentStatusAction = ({ wallets }: { wallets: UserWallets }) =>
  defineAction({
    name: 'payment_status',
    description: 'Read where a payment made by send stands (pending, submitted, confirmed, failed), by its paymentId or its idempotencyKey.',
    capabilities: ['wallet'],
    input: z
      .strictObject({ action: z.literal('payment_status'), paymentId: z.string().uuid().optional(), idempotencyKey: idempotencyKey.optional() })
      .refine((x) => (x.paymentId === undefined) !== (x.idempotencyKey === undefined), 'give exactly one of paymentId and idempotencyKey'),
    async run(ctx, ref) {
      ctx.requireCapability('wallet');
      return { payment: await wallets.payment(ctx.userId, ref) };
    },
  });
