import { describe, expect, it } from 'vitest';
import { authorizationMismatch, readSignedAuthorization, SETTLEMENT_MARGIN_S, type TransferAuthorization } from '../../../../src/domain/gateway/transfer-authorization.js';
import { parseX402Payment, x402OfferMismatch, x402PaymentRequired, x402PaymentResponse } from '../../../../src/domain/gateway/x402.js';

const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const FROM = `0x${'Aa'.repeat(20)}` as const;
const TO = `0x${'bb'.repeat(20)}` as const;
const TOKEN = `0x${'cc'.repeat(20)}` as const;
const NONCE = `0x${'0d'.repeat(32)}` as const;
const SIGNATURE = `0x${'1b'.repeat(65)}` as const;
const NOW = new Date('2026-11-29T08:00:00Z');
const S = BigInt(NOW.getTime() / 1000);
const authorization = { from: FROM, to: TO, value: '10000', validAfter: '0', validBefore: String(S + 300n), nonce: NONCE };
const accepted = { scheme: 'exact', network: 'eip155:8453', asset: TOKEN, amount: '10000', payTo: TO, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } };

describe('the PAYMENT-SIGNATURE envelope', () => {
  it('when it is what @x402/evm sends, then it reads as the accepted offer and the signed authorization, addresses lower-cased', () => {
    const p = parseX402Payment(enc({ x402Version: 2, resource: { url: 'x' }, accepted, payload: { authorization, signature: SIGNATURE } }), b64);
    expect(p).toEqual({
      scheme: 'exact',
      network: 'eip155:8453',
      asset: TOKEN,
      signed: { authorization: { from: FROM.toLowerCase(), to: TO, value: 10000n, validAfter: 0n, validBefore: S + 300n, nonce: NONCE }, signature: SIGNATURE },
    });
  });

  it('when it is version 1, not base64, not JSON, or a field is malformed, then it reads as nothing', () => {
    const bad = [
      enc({ x402Version: 1, accepted, payload: { authorization, signature: SIGNATURE } }),
      'not base64!',
      Buffer.from('{nope').toString('base64'),
      enc({ x402Version: 2, accepted, payload: { authorization: { ...authorization, value: '-1' }, signature: SIGNATURE } }),
      enc({ x402Version: 2, accepted, payload: { authorization: { ...authorization, nonce: '0x12' }, signature: SIGNATURE } }),
      enc({ x402Version: 2, accepted, payload: { authorization: { ...authorization, to: 'me' }, signature: SIGNATURE } }),
      enc({ x402Version: 2, accepted, payload: { authorization, signature: '0x1234' } }),
      enc({ x402Version: 2, payload: { authorization, signature: SIGNATURE } }),
      'A'.repeat(20_000),
    ];
    for (const header of bad) expect(parsePaymentCredentialSafe(header)).toBeNull();
  });

  it('when the accepted offer is another scheme, network or token, then that is the mismatch named', () => {
    const p = (over: object) => parseX402Payment(enc({ x402Version: 2, accepted: { ...accepted, ...over }, payload: { authorization, signature: SIGNATURE } }), b64)!;
    const terms = { chainId: 8453, token: TOKEN.toUpperCase().replace('0X', '0x') };
    expect(x402OfferMismatch(p({}), terms)).toBeNull();
    expect(x402OfferMismatch(p({ scheme: 'upto' }), terms)).toBe('OTHER_SCHEME');
    expect(x402OfferMismatch(p({ network: 'eip155:84532' }), terms)).toBe('OTHER_NETWORK');
    expect(x402OfferMismatch(p({ asset: TO }), terms)).toBe('OTHER_ASSET');
  });
});

const parsePaymentCredentialSafe = (h: string) => parseX402Payment(h, b64);

describe('an authorization against the terms', () => {
  const a = (over: Partial<TransferAuthorization> = {}): TransferAuthorization => ({ ...readSignedAuthorization(authorization, SIGNATURE)!.authorization, ...over });
  const terms = { recipient: TO.toUpperCase().replace('0X', '0x'), amount: 10_000n };

  it('when it pays the recipient at least the price inside its window, then nothing is wrong', () => {
    expect(authorizationMismatch(a(), terms, NOW)).toBeNull();
    expect(authorizationMismatch(a({ value: 20_000n }), terms, NOW)).toBeNull();
  });

  it('when it pays someone else, less, too early or too late to be settled, then that is named', () => {
    expect(authorizationMismatch(a({ to: FROM }), terms, NOW)).toBe('WRONG_RECIPIENT');
    expect(authorizationMismatch(a({ value: 9_999n }), terms, NOW)).toBe('UNDERPAID');
    expect(authorizationMismatch(a({ validAfter: S }), terms, NOW)).toBe('NOT_YET_VALID');
    expect(authorizationMismatch(a({ validBefore: S }), terms, NOW)).toBe('EXPIRED');
    expect(authorizationMismatch(a({ validBefore: S + SETTLEMENT_MARGIN_S }), terms, NOW)).toBe('EXPIRED');
    expect(authorizationMismatch(a({ validBefore: S + SETTLEMENT_MARGIN_S + 1n }), terms, NOW)).toBeNull();
  });
});

describe('the headers the gateway writes', () => {
  it('when an offer is written, then it has x402 version 2’s shape with the amount in base units as text', () => {
    const offer = { chainId: 8453, token: TOKEN, recipient: TO, amount: 10_000n, domain: { name: 'USD Coin', version: '2' }, resourceUrl: 'https://x/api/v1/gateway', description: 'one call' };
    expect(x402PaymentRequired(offer, 'Payment required')).toEqual({
      x402Version: 2,
      error: 'Payment required',
      resource: { url: 'https://x/api/v1/gateway', description: 'one call', mimeType: 'application/json' },
      accepts: [{ ...accepted, asset: TOKEN }],
    });
    expect(x402PaymentResponse({ transaction: '0xabc', chainId: 8453, payer: FROM })).toEqual({ success: true, transaction: '0xabc', network: 'eip155:8453', payer: FROM });
  });
});
