import { describe, expect, it } from 'vitest';
import { canonicalJson, challengeMismatch, isPaymentAuthorization, parsePaymentCredential, toBaseUnits, type StoredChallenge } from '../../../../src/domain/gateway/mpp.js';

const b64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');
const TX = `0x${'ab'.repeat(32)}` as const;
const NONCE = 'n'.repeat(32);
const SIGNATURE = `0x${'1b'.repeat(65)}` as const;

describe('the Payment credential', () => {
  it('when sent as JSON or as base64url JSON, then both read the same, the payer\'s signature included', () => {
    const json = JSON.stringify({ scheme: 'Payment', transaction: TX.toUpperCase().replace('0X', '0x'), challengeNonce: NONCE, signature: SIGNATURE });
    const expected = { transaction: TX, challengeNonce: NONCE, signature: SIGNATURE };
    expect(parsePaymentCredential(`Payment ${json}`, b64)).toEqual(expected);
    expect(parsePaymentCredential(`payment   ${Buffer.from(json).toString('base64url')}`, b64)).toEqual(expected);
  });

  it('when the signature is left out, then it reads as none (the gateway answers a fresh 402 for it)', () => {
    expect(parsePaymentCredential(`Payment ${JSON.stringify({ scheme: 'Payment', transaction: TX, challengeNonce: NONCE })}`, b64)).toEqual({ transaction: TX, challengeNonce: NONCE, signature: null });
  });

  it('when a smart wallet\'s long signature (ERC-6492, a few kilobytes) is sent base64url-encoded, then it is read whole', () => {
    const long = `0x${'ab'.repeat(3000)}` as const;
    const json = JSON.stringify({ scheme: 'Payment', transaction: TX, challengeNonce: NONCE, signature: long });
    expect(parsePaymentCredential(`Payment ${Buffer.from(json).toString('base64url')}`, b64)?.signature).toBe(long);
  });

  it('when anything is off (scheme, hash, nonce, signature, JSON, encoding), then null', () => {
    const cred = (o: object) => `Payment ${JSON.stringify(o)}`;
    for (const header of [
      cred({ scheme: 'Bearer', transaction: TX, challengeNonce: NONCE }),
      cred({ scheme: 'Payment', transaction: '0x1234', challengeNonce: NONCE }),
      cred({ scheme: 'Payment', transaction: TX, challengeNonce: 'short' }),
      cred({ scheme: 'Payment', transaction: TX, challengeNonce: 'bad nonce with spaces!!' }),
      cred({ scheme: 'Payment', transaction: TX }),
      cred({ scheme: 'Payment', transaction: TX, challengeNonce: NONCE, signature: 'not hex' }),
      cred({ scheme: 'Payment', transaction: TX, challengeNonce: NONCE, signature: '0xabc' }),
      cred({ scheme: 'Payment', transaction: TX, challengeNonce: NONCE, signature: 42 }),
      'Payment {not json',
      'Payment ###',
      'Payment',
      `Payment ${Buffer.from('[1,2]').toString('base64url')}`,
    ]) {
      expect(parsePaymentCredential(header, b64), header).toBeNull();
    }
    expect(isPaymentAuthorization('Payment x')).toBe(true);
    expect(isPaymentAuthorization('Bearer x')).toBe(false);
    expect(isPaymentAuthorization(undefined)).toBe(false);
  });
});

describe('amounts and the canonical body', () => {
  it('when a decimal price is converted, then it is exact in base units, and too many decimals are refused', () => {
    expect(toBaseUnits('0.01', 6)).toBe(10_000n);
    expect(toBaseUnits('1', 6)).toBe(1_000_000n);
    expect(toBaseUnits('12.3400', 2)).toBe(1234n);
    expect(toBaseUnits('0.1', 18)).toBe(10n ** 17n);
    expect(() => toBaseUnits('0.0000001', 6)).toThrow(RangeError);
    expect(() => toBaseUnits('-1', 6)).toThrow(RangeError);
  });

  it('when two bodies differ only in key order or spacing, then their canonical text is the same; any value change differs', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'é' } })).toBe(canonicalJson(JSON.parse('{ "a": {"c":"é", "d":[1,{"x":1,"y":2}]}, "b":1 }')));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});

describe('what a challenge binds', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const challenge: StoredChallenge = {
    nonce: NONCE, plugin: 'generate-text', amount: 10_000n, token: '0xaa', recipient: '0xbb', bodyDigest: 'd1',
    issuedAt: new Date(now.getTime() - 60_000), expiresAt: new Date(now.getTime() + 60_000), consumed: false,
  };
  const request = { plugin: 'generate-text', bodyDigest: 'd1', amount: 10_000n, token: '0xAA', recipient: '0xBB' };

  it('when the request matches, then nothing is wrong (addresses compared without case)', () => {
    expect(challengeMismatch(challenge, request, now)).toBeNull();
  });

  it('when anything differs, then the reason names it', () => {
    expect(challengeMismatch(null, request, now)).toBe('UNKNOWN_NONCE');
    expect(challengeMismatch(challenge, request, challenge.expiresAt)).toBe('EXPIRED');
    expect(challengeMismatch(challenge, { ...request, plugin: 'tts' }, now)).toBe('OTHER_PLUGIN');
    expect(challengeMismatch(challenge, { ...request, bodyDigest: 'd2' }, now)).toBe('OTHER_BODY');
    expect(challengeMismatch(challenge, { ...request, amount: 20_000n }, now)).toBe('OTHER_TERMS');
    expect(challengeMismatch(challenge, { ...request, recipient: '0xcc' }, now)).toBe('OTHER_TERMS');
  });

  it('when the challenge expired and the request differs too, then the difference is named, not the time (EXPIRED means this very request, late)', () => {
    const late = challenge.expiresAt;
    expect(challengeMismatch(challenge, { ...request, plugin: 'agent' }, late)).toBe('OTHER_PLUGIN');
    expect(challengeMismatch(challenge, { ...request, bodyDigest: 'd2' }, late)).toBe('OTHER_BODY');
    expect(challengeMismatch(challenge, { ...request, amount: 50_000n }, late)).toBe('OTHER_TERMS');
  });
});
