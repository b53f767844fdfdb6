import type { InjectionToken } from 'tsyringe';
import type { SignedTransfer } from '../../domain/wallets/payout.js';
import type { UserId } from '../../domain/shared/ids.js';

/** One ERC-20 transfer, amount in the token's smallest unit. */
export interface TokenTransfer {
  readonly to: `0x${string}`;
  readonly amount: bigint;
}

/** Where a recorded transfer stands on chain. `dropped`: no receipt, and its nonce was taken by another transaction, so it can never be mined. */
export type TransferOutcome = 'confirmed' | 'reverted' | 'unconfirmed' | 'dropped';

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
   * Sends one transfer under the wallet's send lock, which is held across processes around nonce
   * assignment and broadcast and never while a receipt is awaited. Under the lock `claim` decides
   * whether the transfer is still to be sent (false: nothing is signed, null returned); then the
   * transfer is signed at the wallet's next nonce, `record` stores the signed transfer durably, and
   * only then is it broadcast. A broadcast that fails is not an error here: the transfer is
   * recorded and `settle` finds out whether it reached the chain.
   * @throws as checkFunds, before anything is signed.
   */
  submit(
    userId: UserId,
    transfer: TokenTransfer,
    steps: { claim(): Promise<boolean>; record(signed: SignedTransfer): Promise<void> },
    signal?: AbortSignal,
  ): Promise<SignedTransfer | null>;
  /**
   * Where a recorded transfer stands, waiting for its receipt up to the node timeout. A transfer
   * the node does not know is broadcast again (the same signed bytes: it cannot pay twice).
   * @throws UpstreamUnavailableError when the node fails (the transfer stays as recorded).
   */
  settle(signed: SignedTransfer, signal?: AbortSignal): Promise<TransferOutcome>;
}
export const WALLET_SIGNER: InjectionToken<WalletSigner> = Symbol('WalletSigner');
