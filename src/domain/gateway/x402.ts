import { readSignedAuthorization, type SignedTransferAuthorization, type TokenDomain } from './transfer-authorization.js';

/**
 * x402 version 2, scheme `exact` on EVM, as the gateway speaks it (CONTRACT.md "standard payment
 * clients on the gateway", decision 0430): the offer in `PAYMENT-REQUIRED`, the payment in
 * `PAYMENT-SIGNATURE` (or `X-PAYMENT`), the settlement in `PAYMENT-RESPONSE`. Each is base64 JSON.
 */
export const X402_VERSION = 2 as const;

/** How long a client may make its authorization valid for: the MPP challenge's five minutes. */
export const X402_MAX_TIMEOUT_SECONDS = 300;

export const caip2Network = (chainId: number) => `eip155:${chainId}`;

export interface X402Offer {
  readonly chainId: number;
  readonly token: string;
  readonly recipient: string;
  /** The price in the token's base units. */
  readonly amount: bigint;
  readonly domain: TokenDomain;
  readonly resourceUrl: string;
  readonly description: string;
}

/** One `exact` payment requirement on the MPP chain, in the MPP token, to the MPP recipient (also listed by the discovery document). */
export const x402ExactRequirement = (offer: Pick<X402Offer, 'chainId' | 'token' | 'recipient' | 'amount' | 'domain'>) => ({
  scheme: 'exact' as const,
  network: caip2Network(offer.chainId),
  asset: offer.token,
  amount: offer.amount.toString(),
  payTo: offer.recipient,
  maxTimeoutSeconds: X402_MAX_TIMEOUT_SECONDS,
  extra: { name: offer.domain.name, version: offer.domain.version },
});

/** The `PAYMENT-REQUIRED` object: one `exact` offer. */
export function x402PaymentRequired(offer: X402Offer, error: string) {
  return {
    x402Version: X402_VERSION,
    error,
    resource: { url: offer.resourceUrl, description: offer.description, mimeType: 'application/json' },
    accepts: [x402ExactRequirement(offer)],
  };
}

/** The `PAYMENT-RESPONSE` object of a settled payment. */
export const x402PaymentResponse = (p: { transaction: string; chainId: number; payer: string }) => ({
  success: true,
  transaction: p.transaction,
  network: caip2Network(p.chainId),
  payer: p.payer,
});

/** A payment as `PAYMENT-SIGNATURE` carries it: the offer the client accepted, and its signed authorization. */
export interface X402Payment {
  readonly scheme: string;
  readonly network: string;
  /** The token the client believes it pays in (`accepted.asset`); the signature's domain decides. */
  readonly asset: string;
  readonly signed: SignedTransferAuthorization;
}

/** The header's text, bounded below Node's 16 KB of request headers. */
const MAX_HEADER_CHARS = 14_000;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * `PAYMENT-SIGNATURE` (or the older `X-PAYMENT`): base64 of `{x402Version: 2, accepted: {scheme,
 * network, asset, ...}, payload: {authorization, signature}}`. Null when it is not that (the caller
 * answers 402 with a fresh offer). `decodeBase64` is given so the domain stays free of Node's Buffer.
 */
export function parseX402Payment(header: string, decodeBase64: (text: string) => string): X402Payment | null {
  const raw = header.trim();
  if (raw.length > MAX_HEADER_CHARS || !BASE64.test(raw)) return null;
  let value: unknown;
  try {
    value = JSON.parse(decodeBase64(raw));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { x402Version, accepted, payload } = value as Record<string, unknown>;
  if (x402Version !== X402_VERSION || typeof accepted !== 'object' || accepted === null || typeof payload !== 'object' || payload === null) return null;
  const { scheme, network, asset } = accepted as Record<string, unknown>;
  if (typeof scheme !== 'string' || typeof network !== 'string' || typeof asset !== 'string') return null;
  const { authorization, signature } = payload as Record<string, unknown>;
  const signed = readSignedAuthorization(authorization, signature);
  return signed ? { scheme, network, asset, signed } : null;
}

export type X402OfferMismatch = 'OTHER_SCHEME' | 'OTHER_NETWORK' | 'OTHER_ASSET';

/** Why the offer the client says it accepted is not this gateway's, or null. */
export function x402OfferMismatch(p: X402Payment, terms: { chainId: number; token: string }): X402OfferMismatch | null {
  if (p.scheme !== 'exact') return 'OTHER_SCHEME';
  if (p.network !== caip2Network(terms.chainId)) return 'OTHER_NETWORK';
  if (p.asset.toLowerCase() !== terms.token.toLowerCase()) return 'OTHER_ASSET';
  return null;
}

export const X402_OFFER_MISMATCH_TEXT: Readonly<Record<X402OfferMismatch, string>> = {
  OTHER_SCHEME: 'Only the exact scheme is accepted',
  OTHER_NETWORK: 'The payment is for another network',
  OTHER_ASSET: 'The payment is in another token',
};
