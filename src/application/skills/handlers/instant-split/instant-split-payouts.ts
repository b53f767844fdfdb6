import type { Allocation } from '../../../../domain/skills/split.js';
import type { Payout } from '../../../../domain/wallets/payout.js';
import { centsToTokenUnits, type Wallet } from '../../../../domain/wallets/wallet.js';
import type { WalletBalances } from '../../../ports/wallet-balances.port.js';
import { presentPayout } from '../../../wallets/present-payout.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export type PayoutPlan =
  | { onChain: false; reason: string }
  | { onChain: true; transfers: { allocation: Allocation; to: `0x${string}`; amount: bigint }[] };

/**
 * Whether an execution pays on chain: the owner has a wallet, a node is configured, every
 * recipient is an address and the token holds cents. Each recipient with a share gets one transfer.
 */
export function planPayout(allocations: Allocation[], wallet: Wallet | null, chain: { configured: boolean; token: WalletBalances['token'] }): PayoutPlan {
  if (!wallet) return { onChain: false, reason: 'the owner has no wallet' };
  if (!chain.configured) return { onChain: false, reason: 'no chain is configured (BASE_RPC_URL)' };
  if (!allocations.every((a) => EVM_ADDRESS.test(a.recipientAddress))) return { onChain: false, reason: 'not every recipient is a 0x address' };
  const paid = allocations.filter((a) => a.amountCents > 0);
  const transfers = paid.map((a) => ({ allocation: a, to: a.recipientAddress.toLowerCase() as `0x${string}`, amount: centsToTokenUnits(a.amountCents, chain.token.decimals) }));
  if (transfers.some((t) => t.amount === null)) return { onChain: false, reason: `the token ${chain.token.symbol} cannot hold cents` };
  return { onChain: true, transfers: transfers as { allocation: Allocation; to: `0x${string}`; amount: bigint }[] };
}

/**
 * An execution's settlement as the caller reads it: `status` is the least advanced of its
 * payouts (`pending` until every one is broadcast, `submitted` until every one is mined).
 */
export function presentSettlement(payouts: Payout[], chain: Pick<WalletBalances, 'network' | 'token'>) {
  const order = ['failed', 'pending', 'submitted', 'confirmed'] as const;
  const status = order.find((s) => payouts.some((p) => p.status === s)) ?? 'confirmed';
  return {
    onChain: true,
    status,
    network: chain.network,
    token: { symbol: chain.token.symbol, address: chain.token.address },
    from: payouts.find((p) => p.from !== null)?.from ?? null,
    transfers: payouts.map((p) => {
      const { to, amountUnits, ...rest } = presentPayout(p);
      return { recipientAddress: to, amount: amountUnits, ...rest };
    }),
  };
}
