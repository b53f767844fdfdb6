import type { InjectionToken } from 'tsyringe';
import type { Wallet } from '../../domain/wallets/wallet.js';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * Where users' private keys live and who signs with them (spec "Wallets": the hosted-wallet
 * provider). The default adapter is local: keys generated with viem, sealed by the secret box in
 * the `wallets` table, signing in process. A remote provider (keys held by its API) replaces it
 * behind this port: it creates the wallet there, records the address and its wallet id through
 * the WalletRepository with no sealed key, and signs through its API (docs/decisions/0086-hosted-wallet-provider.md).
 */
export interface WalletCustody {
  /** The provider's name recorded with each wallet (`local` for the default adapter). */
  readonly provider: string;
  /**
   * Creates the user's one wallet: from `privateKey` when given (imported; already validated by
   * the caller), else a freshly generated key.
   * @throws WalletExistsError when the user already has a wallet, also under a concurrent create.
   */
  create(userId: UserId, opts: { privateKey?: `0x${string}` | undefined; label?: string | undefined }): Promise<Wallet>;
}
export const WALLET_CUSTODY: InjectionToken<WalletCustody> = Symbol('WalletCustody');

/** One ERC-20 transfer, amount in the token's smallest unit. */
export interface TokenTransfer {
  readonly to: `0x${string}`;
  readonly amount: bigint;
}

/**
 * Signs and sends ERC-20 transfers from a user's wallet on the configured chain (the `wallet`
 * capability of skills). Each transfer is sent and its receipt awaited before the next one, so a
 * failure leaves the earlier ones known (their hashes are in the error's details).
 */
export interface WalletSigner {
  /** False when no RPC node is configured: nothing can be sent (callers say so). */
  readonly configured: boolean;
  /**
   * @throws NotFoundError when the user has no wallet; WalletNotConfiguredError without an RPC
   *   node or a token; InsufficientFundsError when the balance cannot cover the total (nothing sent);
   *   UpstreamUnavailableError when the node fails or a transfer reverts (details: `sent`).
   */
  transferToken(userId: UserId, transfers: readonly TokenTransfer[], signal?: AbortSignal): Promise<{ from: string; transactions: { to: string; amount: bigint; transactionHash: string }[] }>;
}
export const WALLET_SIGNER: InjectionToken<WalletSigner> = Symbol('WalletSigner');

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

/** Whether a hosted-wallet provider is configured (HOSTED_WALLET_API_KEY and HOSTED_WALLET_PROJECT_ID both set). */
export interface HostedWalletSettings {
  readonly configured: boolean;
  readonly projectId: string | null;
}
export const HOSTED_WALLET_SETTINGS: InjectionToken<HostedWalletSettings> = Symbol('HostedWalletSettings');
