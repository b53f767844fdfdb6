export type WalletNetwork = 'base' | 'base-sepolia';

/** Circle's USDC on each network: the token wallets use unless WALLET_TOKEN_ADDRESS names another. */
const USDC: Record<WalletNetwork, `0x${string}`> = {
  base: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  'base-sepolia': '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
};

/**
 * The network users' wallets live on, and the node and token they are read and signed through;
 * without viem (wallet-chain.ts adds viem's chain), so the wallet ports' data is known at start
 * while their adapters load on first use (docs/decisions/0470).
 */
export interface WalletSettings {
  network: WalletNetwork;
  /** Null when BASE_RPC_URL is not set: balances say so, payments answer 501. */
  rpcUrl: string | null;
  timeoutMs: number;
  token: { address: `0x${string}`; decimals: number; symbol: string };
}

export function walletSettings(cfg: {
  network: WalletNetwork;
  rpcUrl: string | undefined;
  timeoutMs: number;
  token: { address?: `0x${string}` | undefined; decimals: number; symbol: string };
}): WalletSettings {
  return {
    network: cfg.network,
    rpcUrl: cfg.rpcUrl ?? null,
    timeoutMs: cfg.timeoutMs,
    token: { address: cfg.token.address ?? USDC[cfg.network], decimals: cfg.token.decimals, symbol: cfg.token.symbol },
  };
}
