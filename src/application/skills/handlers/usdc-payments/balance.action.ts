import { z } from 'zod';
import type { UserWallets } from '../../../ports/user-wallets.port.js';
import { defineAction } from '../define-action.js';

/** The `balance` action of usdc-payments. */
export const balanceAction = ({ wallets }: { wallets: UserWallets }) =>
  defineAction({
    name: 'balance',
    description: "Read the user's wallet address and USDC balance.",
    capabilities: ['network', 'wallet'],
    input: z.strictObject({ action: z.literal('balance') }),
    async run(ctx) {
      ctx.requireCapability('wallet');
      return { wallet: await wallets.balance(ctx.userId, ctx.signal) };
    },
  });
