import { createPublicClient, http, type Chain, type PublicClient } from 'viem';
import { base, baseSepolia } from 'viem/chains';
import { walletSettings, type WalletNetwork, type WalletSettings } from './wallet-network.js';

export type { WalletNetwork } from './wallet-network.js';

const CHAINS: Record<WalletNetwork, Chain> = { base, 'base-sepolia': baseSepolia };

/** The chain users' wallets live on, and the node and token they are read and signed through. */
export interface WalletChain extends WalletSettings {
  chain: Chain;
}

export function walletChain(cfg: Parameters<typeof walletSettings>[0]): WalletChain {
  const settings = walletSettings(cfg);
  return { ...settings, chain: CHAINS[settings.network] };
}

/** A client of the node: bounded, no retries (a retried send could pay twice), nothing cached. */
export const walletPublicClient = (c: WalletChain & { rpcUrl: string }): PublicClient =>
  createPublicClient({ chain: c.chain, transport: http(c.rpcUrl, { timeout: c.timeoutMs, retryCount: 0 }), cacheTime: 0, pollingInterval: 200, batch: { multicall: false } }) as PublicClient;

export const ERC20_ABI = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'owner', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] },
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'to', type: 'address' }, { name: 'value', type: 'uint256' }],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

/**
 * A failure of the node, summarised without viem's full message: that quotes the node's URL,
 * which often carries an API key.
 */
export const nodeFailure = (err: unknown): string => {
  const e = err as { name?: string; shortMessage?: string };
  return `${e.name ?? 'Error'}: ${e.shortMessage ?? 'failed'}`;
};
