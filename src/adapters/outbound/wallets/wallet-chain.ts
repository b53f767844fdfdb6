import { createPublicClient, http, type Chain, type PublicClient } from 'viem';
import { base, baseSepolia } from 'viem/chains';

export type WalletNetwork = 'base' | 'base-sepolia';

const CHAINS: Record<WalletNetwork, Chain> = { base, 'base-sepolia': baseSepolia };
/** Circle's USDC on each network: the token wallets use unless WALLET_TOKEN_ADDRESS names another. */
const USDC: Record<WalletNetwork, `0x${string}`> = {
  base: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  'base-sepolia': '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
};

/** The chain users' wallets live on, and the node and token they are read and signed through. */
export interface WalletChain {
  network: WalletNetwork;
  chain: Chain;
  /** Null when BASE_RPC_URL is not set: balances say so, payments answer 501. */
  rpcUrl: string | null;
  timeoutMs: number;
  token: { address: `0x${string}`; decimals: number; symbol: string };
}

export function walletChain(cfg: {
  network: WalletNetwork;
  rpcUrl: string | undefined;
  timeoutMs: number;
  token: { address?: `0x${string}` | undefined; decimals: number; symbol: string };
}): WalletChain {
  return {
    network: cfg.network,
    chain: CHAINS[cfg.network],
    rpcUrl: cfg.rpcUrl ?? null,
    timeoutMs: cfg.timeoutMs,
    token: { address: cfg.token.address ?? USDC[cfg.network], decimals: cfg.token.decimals, symbol: cfg.token.symbol },
  };
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
