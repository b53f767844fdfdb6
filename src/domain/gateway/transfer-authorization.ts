/**
 * EIP-3009 `transferWithAuthorization` as the gateway accepts it (decision 0430): the pure rules.
 * The same authorization arrives in x402's `PAYMENT-SIGNATURE` envelope and in MPP's `evm`
 * `authorization` credential; whatever the envelope, it is checked by these rules, settled by the
 * service and recorded once by its (token, payer, nonce).
 */

export type Hex = `0x${string}`;

/** The message a payer signs (EIP-712 `TransferWithAuthorization`). */
export interface TransferAuthorization {
  readonly from: Hex;
  readonly to: Hex;
  /** Base units of the token. */
  readonly value: bigint;
  /** Unix seconds: valid strictly after this... */
  readonly validAfter: bigint;
  /** ...and strictly before this (the token compares with the block's timestamp). */
  readonly validBefore: bigint;
  /** 32 random bytes chosen by the payer: one use per payer and token, on chain. */
  readonly nonce: Hex;
}

export interface SignedTransferAuthorization {
  readonly authorization: TransferAuthorization;
  /** 65-byte ECDSA, an ERC-1271 wallet's bytes, or an ERC-6492-wrapped signature. */
  readonly signature: Hex;
}

/** The EIP-712 domain a token signs under (`name()` and `version()`; chain id and address are the terms'). */
export interface TokenDomain {
  readonly name: string;
  readonly version: string;
}

/**
 * Seconds an authorization must still be valid when it is checked: the settlement has to be mined
 * before `validBefore`. x402's own facilitator asks for 6 s; a block or two on Base.
 */
export const SETTLEMENT_MARGIN_S = 6n;

export type AuthorizationMismatch = 'WRONG_RECIPIENT' | 'UNDERPAID' | 'NOT_YET_VALID' | 'EXPIRED';

export const AUTHORIZATION_MISMATCH_TEXT: Readonly<Record<AuthorizationMismatch, string>> = {
  WRONG_RECIPIENT: 'The authorization pays another recipient',
  UNDERPAID: 'The authorization pays less than the price',
  NOT_YET_VALID: 'The authorization is not valid yet (validAfter)',
  EXPIRED: 'The authorization has expired, or expires before it could be settled (validBefore)',
};

/**
 * Why `a` cannot pay `amount` to `recipient` now, or null. The window is this service's clock:
 * `validAfter` must be past (the chain's own clock may lag ours, decision 0377: the simulation
 * before settlement then says so), and `validBefore` at least SETTLEMENT_MARGIN_S ahead.
 */
export function authorizationMismatch(a: TransferAuthorization, terms: { recipient: string; amount: bigint }, now: Date): AuthorizationMismatch | null {
  if (a.to.toLowerCase() !== terms.recipient.toLowerCase()) return 'WRONG_RECIPIENT';
  if (a.value < terms.amount) return 'UNDERPAID';
  const seconds = BigInt(Math.floor(now.getTime() / 1000));
  if (a.validAfter >= seconds) return 'NOT_YET_VALID';
  if (a.validBefore <= seconds + SETTLEMENT_MARGIN_S) return 'EXPIRED';
  return null;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const UINT = /^[0-9]{1,78}$/;
/** Hex bytes; a smart wallet's (ERC-1271, ERC-6492-wrapped) signature can run to a few kilobytes. */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){65,5000}$/;

/**
 * An authorization as JSON carries it (`{from, to, value, validAfter, validBefore, nonce}`, the
 * numbers as decimal strings or integers) with its signature; null when any field is malformed.
 * Addresses and the nonce are lower-cased: they are compared and stored so.
 */
export function readSignedAuthorization(authorization: unknown, signature: unknown): SignedTransferAuthorization | null {
  if (typeof authorization !== 'object' || authorization === null || typeof signature !== 'string' || !SIGNATURE.test(signature)) return null;
  const { from, to, value, validAfter, validBefore, nonce } = authorization as Record<string, unknown>;
  if (typeof from !== 'string' || !ADDRESS.test(from) || typeof to !== 'string' || !ADDRESS.test(to)) return null;
  if (typeof nonce !== 'string' || !BYTES32.test(nonce)) return null;
  const numbers = [value, validAfter, validBefore].map(uint);
  if (numbers.some((n) => n === null)) return null;
  const [v, after, before] = numbers as [bigint, bigint, bigint];
  return {
    authorization: { from: lower(from), to: lower(to), value: v, validAfter: after, validBefore: before, nonce: lower(nonce) },
    signature: lower(signature),
  };
}

function uint(x: unknown): bigint | null {
  if (typeof x === 'number' && Number.isSafeInteger(x) && x >= 0) return BigInt(x);
  if (typeof x === 'string' && UINT.test(x)) return BigInt(x);
  return null;
}

const lower = (s: string) => s.toLowerCase() as Hex;
