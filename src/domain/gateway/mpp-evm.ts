import { canonicalJson } from './mpp.js';
import { readSignedAuthorization, type Hex, type SignedTransferAuthorization } from './transfer-authorization.js';

/**
 * MPP's `evm` payment method, `charge` intent, `authorization` credential type, as the `mppx` SDK
 * (0.11) speaks it (decision 0435): the pure rules. The gateway's challenge carries mppx's
 * auth-params (`id`, `realm`, `method="evm"`, `intent="charge"`, `request`, `expires`) after the
 * spec's own `amount`, `currency` and `recipient`; the client answers `Authorization: Payment
 * <base64url JSON {challenge, payload, source}>` whose payload is an EIP-3009
 * `transferWithAuthorization` signed by the payer, its nonce `keccak256(challenge.id + realm)`.
 * The challenge's id is the gateway's stored challenge nonce, so the one-use EIP-3009 nonce is
 * bound to one stored challenge (plugin, price, body digest) and nothing else.
 */
export const MPP_EVM_METHOD = 'evm';
export const MPP_CHARGE_INTENT = 'charge';

/** What `Authorization: Payment` carries for mppx's evm authorization. */
export interface MppEvmCredential {
  /** The echoed challenge's id: the gateway's challenge nonce. */
  readonly challengeId: string;
  /** The echoed realm, as the client read it (the binding is checked against the gateway's own). */
  readonly realm: string;
  /** `did:pkh:eip155:<chainId>:<from>` when the client sent one. */
  readonly source: string | null;
  /** The EIP-3009 authorization and its signature, read by the rules every envelope shares (lower-cased). */
  readonly signed: SignedTransferAuthorization;
}

/** The challenge nonces the gateway issues (24 random bytes, base64url), with room. */
const CHALLENGE_ID = /^[A-Za-z0-9_-]{16,64}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/** Below Node's 16 KB of request headers, as the transaction-hash credential. */
const MAX_CREDENTIAL_CHARS = 14_000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The base64url JSON of `Authorization: Payment <credential>` when it is mppx's shape (an object
 * with `challenge` and `payload`), else null: the spec's transaction-hash credential, or anything
 * unreadable, is left to its own parser. `decodeBase64Url` keeps the domain free of Node's Buffer.
 */
export function mppxCredentialJson(header: string, decodeBase64Url: (text: string) => string): Record<string, unknown> | null {
  const m = /^Payment\s+(\S+)\s*$/i.exec(header.trim());
  if (!m) return null;
  const raw = m[1]!;
  if (raw.length > MAX_CREDENTIAL_CHARS || !BASE64URL.test(raw)) return null;
  let value: unknown;
  try {
    value = JSON.parse(decodeBase64Url(raw));
  } catch {
    return null;
  }
  return isRecord(value) && isRecord(value.challenge) && isRecord(value.payload) ? value : null;
}

/**
 * mppx's credential for the `evm` method's `authorization` type, or null when any field is absent
 * or malformed, or the method, intent or type is another (the caller answers 402 with a fresh
 * challenge and `CREDENTIAL_INVALID`). What the echoed challenge's `request` says is not read: the
 * gateway's stored challenge is what binds.
 */
export function parseMppEvmCredential(json: Record<string, unknown>): MppEvmCredential | null {
  const challenge = json.challenge as Record<string, unknown>;
  const payload = json.payload as Record<string, unknown>;
  if (challenge.method !== MPP_EVM_METHOD || challenge.intent !== MPP_CHARGE_INTENT || payload.type !== 'authorization') return null;
  const { id, realm } = challenge;
  if (typeof id !== 'string' || !CHALLENGE_ID.test(id) || typeof realm !== 'string' || realm.length === 0 || realm.length > 255) return null;
  // mppx sends the numbers as decimal text only
  for (const n of [payload.value, payload.validAfter, payload.validBefore]) if (typeof n !== 'string') return null;
  const signed = readSignedAuthorization(payload, payload.signature);
  if (!signed) return null;
  const source = json.source;
  if (source !== undefined && (typeof source !== 'string' || source.length > 200)) return null;
  return { challengeId: id, realm, source: typeof source === 'string' ? source : null, signed };
}

/**
 * The EIP-3009 nonce mppx derives from a challenge: keccak256 of the UTF-8 text `id + realm`
 * (mppx `Types.challengeHash`). `keccak256Utf8` is given so the domain stays free of a hashing library.
 */
export const challengeBoundNonce = (challengeId: string, realm: string, keccak256Utf8: (text: string) => Hex): Hex =>
  keccak256Utf8(`${challengeId}${realm}`).toLowerCase() as Hex;

/** mppx's payer identifier: `did:pkh:eip155:<chainId>:<address>`. */
export const payerSource = (chainId: number, address: string): string => `did:pkh:eip155:${chainId}:${address}`;

export type MppEvmBindingMismatch =
  /** The EIP-3009 nonce is not this challenge's: signed for another challenge, realm or by hand. */
  | 'CHALLENGE_NOT_BOUND'
  /** `source` names another payer or chain than the authorization's. */
  | 'SOURCE_MISMATCH';

/**
 * Why this authorization is not bound to the challenge it names, before any chain is asked, or
 * null: its nonce must be the challenge's (so the token contract itself lets it move money once),
 * and `source`, when sent, its payer on this chain. Recipient, price and window are the rules every
 * envelope shares (transfer-authorization.ts); signature, domain and the nonce's state on chain the
 * chain's.
 */
export function mppEvmBindingMismatch(credential: MppEvmCredential, expected: { nonce: Hex; chainId: number }): MppEvmBindingMismatch | null {
  const a = credential.signed.authorization;
  if (a.nonce.toLowerCase() !== expected.nonce.toLowerCase()) return 'CHALLENGE_NOT_BOUND';
  if (credential.source !== null && credential.source.toLowerCase() !== payerSource(expected.chainId, a.from).toLowerCase()) return 'SOURCE_MISMATCH';
  return null;
}

/** What the gateway offers mppx for one call: its stored challenge, priced in base units. */
export interface MppEvmOffer {
  /** The stored challenge's nonce. */
  readonly id: string;
  readonly realm: string;
  /** Base units. */
  readonly amount: bigint;
  readonly token: string;
  readonly recipient: string;
  readonly chainId: number;
  readonly decimals: number;
  readonly description: string;
  readonly expiresAt: Date;
}

/**
 * mppx's evm charge request, as its server emits it after its own schema's transform: the amount
 * in base units as text, `methodDetails` with the chain id, the accepted credential types and the
 * decimals.
 */
export const mppEvmRequest = (offer: MppEvmOffer) => ({
  amount: offer.amount.toString(),
  currency: offer.token,
  description: offer.description,
  methodDetails: { chainId: offer.chainId, credentialTypes: ['authorization'], decimals: offer.decimals },
  recipient: offer.recipient,
});

/**
 * The auth-params mppx reads, to follow the spec's `Payment amount=…, currency=…, recipient=…`
 * in the same challenge: mppx's parser keeps the params it knows and ignores the spec's, while a
 * reader of the spec's three still finds them first. `request` is base64url of the canonical JSON.
 */
export function mppEvmAuthParams(offer: MppEvmOffer, encodeBase64Url: (text: string) => string): string {
  const quoted = (name: string, value: string) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return [
    quoted('id', offer.id),
    quoted('realm', offer.realm),
    quoted('method', MPP_EVM_METHOD),
    quoted('intent', MPP_CHARGE_INTENT),
    quoted('request', encodeBase64Url(canonicalJson(mppEvmRequest(offer)))),
    quoted('description', offer.description),
    quoted('expires', offer.expiresAt.toISOString()),
  ].join(', ');
}

/** The realm of the gateway's challenges: APP_URL's host (mppx's servers default to theirs). */
export const realmOf = (appUrl: string): string => new URL(appUrl).host;
