import { z } from 'zod';
import type { UserWallets } from '../../../ports/user-wallets.port.js';
import { defineAction } from '../define-action.js';
import { idempotencyKey } from './usdc-payments.shared.js';

/** The `send` action of usdc-payments. */
export const sendAction = ({ wallets }: { wallets: UserWallets }) =>
  defineAction({
    name: 'send',
    description: "Send USDC from the user's wallet to an address; amount is decimal text such as \"12.50\".",
    capabilities: ['network', 'wallet', 'payments'],
    input: z.strictObject({
      action: z.literal('send'),
      to: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed address of 40 hex digits'),
      // zeros past the sixth decimal change nothing (docs/decisions/0300-decimal-text-to-token-units.md)
      amount: z.string().max(40).regex(/^(?!0+(\.0*)?$)\d{1,12}(\.\d{1,6}0*)?$/, 'a positive decimal with at most 6 significant decimals'),
      idempotencyKey: idempotencyKey.optional(),
    }),
    async run(ctx, { to, amount, idempotencyKey }) {
      ctx.requireCapability('wallet');
      ctx.requireCapability('payments');
      return await wallets.send(ctx.userId, { to, amount, idempotencyKey }, ctx.signal);
    },
  });
