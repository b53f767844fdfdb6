import type { InjectionToken } from 'tsyringe';

/** Balances read on the configured chain. */
export interface WalletBalances {
  /** The network's name (`base`, `base-sepolia`) as responses show it. */
  readonly network: string;
  /** The ERC-20 the wallets show and pay with (the network's USDC unless configured). */
  readonly token: { address: `0x${string}`; decimals: number; symbol: string };
  /**
   * Native balance (ETH) and the token's, as decimal text.
   * @throws WalletNotConfiguredError without an RPC node; UpstreamUnavailableError when it fails.
   */
  read(address: `0x${string}`, signal?: AbortSignal): Promise<{ native: string; token: string }>;
}
export const WALLET_BALANCES: InjectionToken<WalletBalances> = Symbol('WalletBalances');
