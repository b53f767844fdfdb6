import type { InjectionToken } from 'tsyringe';
import type { RecordOutcome, SignedTransfer } from '../../domain/wallets/payout.js';
import type { UserId } from '../../domain/shared/ids.js';

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
