import type { InjectionToken } from 'tsyringe';
import type { RecordOutcome, SignedTransfer } from '../../domain/wallets/payout.js';
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
 * Where a recorded transfer stands on chain. `stuck`: the node shows no receipt, yet the wallet's
 * nonce count has passed its nonce. Either it was mined and this node (or the one answering this
 * read behind a load balancer) has not shown the receipt yet, or a transaction made elsewhere with
 * the same key took the nonce. One node cannot tell these apart, so a stuck transfer is never
 * replaced automatically.
 */
export type TransferOutcome = 'confirmed' | 'reverted' | 'unconfirmed' | 'stuck';

/** What the caller of `submit` decides and records, each in a short unit of work of its own. */
export interface SubmitSteps {
  claim(): Promise<boolean>;
  nextNonce(from: string): Promise<number>;
  record(signed: SignedTransfer): Promise<RecordOutcome>;
  unminedBefore(from: string, nonce: number): Promise<`0x${string}`[]>;
}

/**
 * Signs and sends ERC-20 transfers from a user's wallet on the configured chain (the `wallet`
 * capability of skills), one transfer at most once: the caller keeps each transfer as an outbox
 * row (`Payout`) and this port signs, lets the caller record the hash, broadcasts, and checks.
 */
export interface WalletSigner {
  /** False when no RPC node is configured: nothing can be sent (callers say so). */
  readonly configured: boolean;
  /**
   * Whether the wallet holds `total` token units and some gas.
   * @throws NotFoundError without a wallet; WalletNotConfiguredError without a node;
   *   InsufficientFundsError when short; UpstreamUnavailableError when the node fails.
   */
  checkFunds(userId: UserId, total: bigint, signal?: AbortSignal): Promise<{ from: string }>;
  /**
   * Sends one transfer, holding no database connection across its node calls (docs/decisions/0416).
   * The wallet's funds are checked first; then `claim` decides whether the transfer is still to be
   * sent (false: nothing is signed, null returned). The transfer is signed at the wallet's next
   * nonce (the greater of the node's pending count and `nextNonce`, what the recorded payouts say)
   * and `record` stores it durably: `nonce-taken` signs again at the next nonce, `lost` returns null
   * with nothing broadcast. Only then is it broadcast, after the wallet's earlier unmined transfers
   * (`unminedBefore`, their recorded bytes) so that it does not wait behind a gap. A broadcast that
   * fails is not an error here: the transfer is recorded and `settle` finds out whether it reached
   * the chain.
   * @throws as checkFunds, before anything is claimed.
   */
  submit(userId: UserId, transfer: TokenTransfer, steps: SubmitSteps, signal?: AbortSignal): Promise<SignedTransfer | null>;
  /**
   * Where a recorded transfer stands, waiting for its receipt up to the node timeout. A transfer
   * the node does not know is broadcast again (the same signed bytes: it cannot pay twice).
   * @throws UpstreamUnavailableError when the node fails (the transfer stays as recorded).
   */
  settle(signed: SignedTransfer, signal?: AbortSignal): Promise<TransferOutcome>;
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
