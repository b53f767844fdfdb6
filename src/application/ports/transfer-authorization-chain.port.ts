import type { Hex, SignedTransferAuthorization, TokenDomain } from '../../domain/gateway/transfer-authorization.js';

/** One settlement transaction, signed by the settler and not yet known to be mined. */
export interface SignedSettlement {
  /** The settler's address, lower-case. */
  readonly settler: Hex;
  readonly nonce: number;
  readonly hash: Hex;
  /** The serialized signed transaction: broadcast again, never signed again. */
  readonly raw: Hex;
}

/** The gas a settlement is signed with: estimated, and within MPP_SETTLER_MAX_GAS. */
export interface SettlementPlan {
  readonly gas: bigint;
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

export type SettlementOutcome = 'confirmed' | 'reverted' | 'unconfirmed';

/**
 * The chain side of EIP-3009 payments (decision 0430), whatever envelope carried the authorization
 * (x402's `PAYMENT-SIGNATURE`, MPP's `evm` `authorization`): reading the token, checking an
 * authorization, and settling it from the service's settler account. It stores nothing: the
 * caller (SettleTransferAuthorization) records intent, nonce and bytes in the ledger around these
 * calls, and never holds a database connection across one of them. Every method bounds each node
 * call by MPP_RPC_TIMEOUT_MS; a node that fails is UpstreamUnavailableError (502).
 */
export interface TransferAuthorizationChain {
  /** The settler's address, lower-case. */
  readonly settler: Hex;
  /** The token's EIP-712 domain (`name()`, `version()`), read once per token and kept. */
  domain(token: Hex): Promise<TokenDomain>;
  /**
   * Read-only: the signature is `from`'s under the token's domain on this chain (an EOA, a deployed
   * ERC-1271 wallet, an undeployed ERC-6492-wrapped one); the nonce is unused on chain
   * (`authorizationState`); the payer holds the value; and the settlement, simulated from the
   * settler, would succeed (not simulated for an undeployed ERC-6492 wallet: it must be deployed
   * first, `deployPayer`). Rejects with MppPaymentRejectedError naming the first that fails.
   */
  check(token: Hex, signed: SignedTransferAuthorization): Promise<void>;
  /**
   * The gas to settle with: estimated (a revert is MppPaymentRejectedError), refused above the
   * bound and when the settler's ether does not cover it (SettlementFailedError, 502).
   */
  plan(token: Hex, signed: SignedTransferAuthorization): Promise<SettlementPlan>;
  /**
   * A payer that is an undeployed ERC-6492 wallet (its signature wraps the factory call that deploys
   * it, and no code is at `from` yet) is deployed first, by that factory call sent from the settler
   * at the nonce `nextNonce` gives (asked only then; gas bounded as a settlement's) and awaited: the token can then ask the wallet
   * (ERC-1271). Resolves whether a transaction was sent. Only under the settler's lease.
   */
  deployPayer(signed: SignedTransferAuthorization, nextNonce: () => Promise<number>, timeoutMs: number): Promise<boolean>;
  /** The settler's pending transaction count by the node (covers transactions made elsewhere with the key). */
  pendingNonce(): Promise<number>;
  /** Signs the settlement at `nonce`; sends nothing. */
  sign(token: Hex, signed: SignedTransferAuthorization, plan: SettlementPlan, nonce: number): Promise<SignedSettlement>;
  /** Sends recorded bytes; never throws (a lost broadcast is found by `outcome`, which sends them again). */
  broadcast(raw: Hex): Promise<void>;
  /**
   * Waits up to `timeoutMs` for the transaction to have `confirmations` blocks (its own counting as
   * one), sending its bytes again when the node does not know it. `unconfirmed`: not mined in time,
   * or the node failed meanwhile: the outcome is not known, the caller keeps the record.
   */
  outcome(s: Pick<SignedSettlement, 'hash' | 'raw'>, confirmations: number, timeoutMs: number): Promise<SettlementOutcome>;
}
