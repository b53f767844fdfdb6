import type { Hex, SignedTransferAuthorization } from '../../domain/gateway/transfer-authorization.js';
import type { SignedSettlement } from './transfer-authorization-chain.port.js';

/** An authorization is known by its token, its payer and its nonce: EIP-3009's own one-use key. */
export interface AuthorizationKey {
  readonly token: Hex;
  readonly payer: Hex;
  readonly nonce: Hex;
}

/** The one call an authorization pays for, as a transaction hash's payment binds it (decision 0410). */
export interface AuthorizationBinding {
  readonly plugin: string;
  /** Hex SHA-256 of the canonical request body. */
  readonly bodyDigest: string;
  /** Today's price of `plugin`, base units. */
  readonly amount: bigint;
}

/**
 * claimed: intent recorded, nothing signed; submitted: the settlement is signed and recorded (maybe
 * mined); settled: confirmed on chain, the plugin is running; served / failed / retrying as an MPP
 * payment's; reverted: mined and reverted, nothing moved (the authorization may be presented again).
 */
export type AuthorizationStatus = 'claimed' | 'submitted' | 'settled' | 'served' | 'failed' | 'retrying' | 'reverted';

export interface RecordedAuthorization {
  readonly status: AuthorizationStatus;
  readonly signature: Hex;
  readonly binding: AuthorizationBinding;
  readonly claimedAt: Date;
  /** Set from `submitted` on. */
  readonly settlement: SignedSettlement | null;
}

export interface AuthorizationClaim {
  readonly key: AuthorizationKey;
  readonly signed: SignedTransferAuthorization;
  readonly binding: AuthorizationBinding;
  /** Fresh per attempt: only its holder may record a settlement for the claim. */
  readonly claimToken: string;
}

/**
 * The gateway's EIP-3009 payments (table `mpp_authorizations`), used only in the system unit of
 * work, each method its own short transaction: none is open while the chain is called.
 */
export interface AuthorizationLedger {
  find(key: AuthorizationKey): Promise<RecordedAuthorization | null>;
  /**
   * Records the intent to settle before anything is signed. True for the one caller that gets the
   * authorization: a new row, or one whose claim is older than `staleBefore` and still unsigned (its
   * holder died), or one whose settlement reverted. Of concurrent callers exactly one wins (the
   * primary key, then the row lock).
   */
  claim(c: AuthorizationClaim, now: Date, staleBefore: Date): Promise<boolean>;
  /** Gives up a claim nothing was recorded for (the row goes: the authorization may be presented again). */
  release(key: AuthorizationKey, claimToken: string): Promise<void>;
  /** The settler's next nonce by its recorded settlements (0 when none). */
  nextSettlerNonce(settler: Hex): Promise<number>;
  /**
   * claimed → submitted with the signed settlement, only while the claim is this token's.
   * `nonce-taken`: another settlement holds that settler nonce (unique), nothing changed; `lost`:
   * the claim was taken over. Neither may be broadcast.
   */
  recordSubmitted(key: AuthorizationKey, claimToken: string, s: SignedSettlement, now: Date): Promise<'recorded' | 'nonce-taken' | 'lost'>;
  /** The raw bytes of the settler's submitted settlements below `nonce`, lowest first (a lost broadcast holds later ones back). */
  unminedBefore(settler: Hex, nonce: number): Promise<Hex[]>;
  /** submitted → settled once the settlement is confirmed: true for the one caller that may run the plugin. */
  markSettled(key: AuthorizationKey, txHash: Hex): Promise<boolean>;
  /** submitted → reverted: mined and reverted, nothing moved. */
  markReverted(key: AuthorizationKey, txHash: Hex, failure: string): Promise<void>;
  /**
   * failed → retrying, at most once, and only for the request the authorization paid for (the same
   * plugin, body digest and price, compared in the same statement). True for the one caller that may retry.
   */
  claimRetry(key: AuthorizationKey, binding: AuthorizationBinding): Promise<boolean>;
  /** The plugin answered: settled or retrying → served. */
  markServed(key: AuthorizationKey): Promise<void>;
  /** The plugin failed before any output after the payment was settled: the same payment may retry once. */
  markFailed(key: AuthorizationKey, failure: string): Promise<void>;
  /**
   * Takes the settler's lease (table `mpp_settler_leases`) for `holder` until `until`, when it is
   * free or expired: one process sends from the settler at a time, from nonce to broadcast.
   */
  acquireSettler(settler: Hex, holder: string, until: Date, now: Date): Promise<boolean>;
  releaseSettler(settler: Hex, holder: string): Promise<void>;
}
