import { decimalToTokenUnits } from '../shared/token-units.js';

/**
 * MPP on the gateway (spec "MPP challenge object", CONTRACT.md section 7 "MPP credential"): the
 * pure rules. A challenge is single use, lives five minutes, and binds plugin, amount and a
 * digest of the request body.
 */
export const MPP_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export interface PaymentCredential {
  readonly transaction: `0x${string}`;
  readonly challengeNonce: string;
  /**
   * The EIP-191 signature (personal_sign) of the exact `challengeNonce` text by the address that
   * sent the transfer: only the payer can claim a transfer anyone can see on chain. Null when the
   * credential carries none (refused with a fresh challenge, nothing consumed).
   */
  readonly signature: `0x${string}` | null;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
/** Hex bytes; a smart wallet's (ERC-1271, ERC-6492-wrapped) signature can run to a few kilobytes. */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){1,5000}$/;
/** The credential's text, bounded below Node's 16 KB of request headers. */
const MAX_CREDENTIAL_CHARS = 14_000;
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** True when the Authorization header uses the `Payment` scheme (whatever follows). */
export const isPaymentAuthorization = (header: string | undefined): boolean => header !== undefined && /^Payment(\s|$)/i.test(header);

/**
 * The credential of `Authorization: Payment <credential>`: the JSON
 * `{scheme: "Payment", transaction, challengeNonce, signature}` as is or base64url-encoded. Null
 * when it is neither, or a field is malformed (the caller answers 402 with a fresh challenge). `decodeBase64Url` is given so the
 * domain stays free of Node's Buffer.
 */
export function parsePaymentCredential(header: string, decodeBase64Url: (text: string) => string): PaymentCredential | null {
  const m = /^Payment\s+(.+)$/is.exec(header.trim());
  if (!m) return null;
  const raw = m[1]!.trim();
  let text = raw;
  if (!raw.startsWith('{')) {
    if (!BASE64URL.test(raw) || raw.length > MAX_CREDENTIAL_CHARS) return null;
    text = decodeBase64Url(raw);
  }
  if (text.length > MAX_CREDENTIAL_CHARS) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { scheme, transaction, challengeNonce, signature } = value as Record<string, unknown>;
  if (scheme !== 'Payment' || typeof transaction !== 'string' || typeof challengeNonce !== 'string') return null;
  if (!TX_HASH.test(transaction) || !NONCE.test(challengeNonce)) return null;
  if (signature !== undefined && signature !== null && (typeof signature !== 'string' || !SIGNATURE.test(signature))) return null;
  return { transaction: transaction.toLowerCase() as `0x${string}`, challengeNonce, signature: typeof signature === 'string' ? (signature as `0x${string}`) : null };
}

/**
 * A configured price (`0.01`) in base units (10000n at 6 decimals), by the one rule of
 * decimalToTokenUnits. A price the token cannot hold exactly is a configuration mistake.
 */
export function toBaseUnits(decimal: string, decimals: number): bigint {
  const units = decimalToTokenUnits(decimal, decimals);
  if (units === null) throw new RangeError(`${decimal} is not a decimal amount with at most ${decimals} significant decimals`);
  return units;
}

/**
 * The canonical text of a parsed JSON body: objects with their keys sorted, no whitespace. Two
 * bodies that parse to the same value have the same text, whatever their key order or spacing.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a stored challenge binds; a credential pays only for a request that matches all of it. */
export interface StoredChallenge {
  readonly nonce: string;
  readonly plugin: string;
  readonly amount: bigint;
  readonly token: string;
  readonly recipient: string;
  readonly bodyDigest: string;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  readonly consumed: boolean;
}

export type ChallengeMismatch = 'UNKNOWN_NONCE' | 'EXPIRED' | 'OTHER_PLUGIN' | 'OTHER_BODY' | 'OTHER_TERMS';

/**
 * Why `challenge` cannot pay for this request, or null when it can (consumption aside: the
 * ledger decides that atomically). Terms are the current token, recipient and price: a
 * challenge issued under other terms does not pay for today's.
 *
 * What the challenge binds is compared before its time, so `EXPIRED` means this very request,
 * only late: the one retry of a failed payment is allowed after the five minutes on that answer
 * alone, never for another plugin, body or price (decision 0410).
 */
export function challengeMismatch(
  challenge: StoredChallenge | null,
  request: { plugin: string; bodyDigest: string; amount: bigint; token: string; recipient: string },
  now: Date,
): ChallengeMismatch | null {
  if (!challenge) return 'UNKNOWN_NONCE';
  if (challenge.plugin !== request.plugin) return 'OTHER_PLUGIN';
  if (challenge.bodyDigest !== request.bodyDigest) return 'OTHER_BODY';
  if (challenge.amount !== request.amount || challenge.token.toLowerCase() !== request.token.toLowerCase() || challenge.recipient.toLowerCase() !== request.recipient.toLowerCase()) {
    return 'OTHER_TERMS';
  }
  if (challenge.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return null;
}
