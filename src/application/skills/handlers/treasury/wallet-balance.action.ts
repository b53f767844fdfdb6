import { z } from 'zod';
import type { UserWallets } from '../../../ports/user-wallets.port.js';
import { action } from '../skill-inputs.js';

/** The `wallet_balance` action of treasury. */
export const walletBalanceAction = ({ wallets }: { wallets: UserWallets }) =>
  action({
    name: 'wallet_balance',
    description: "The owner's wallet: its address and token balance as read on chain now.",
    input: z.strictObject({ action: z.literal('wallet_balance') }),
    capabilities: ['wallet'],
    run: async (ctx) => {
      ctx.requireCapability('wallet');
      return { wallet: await wallets.balance(ctx.userId, ctx.signal) };
    },
  });
