import { NodeCryptoIdGenerator } from '../../../../src/adapters/outbound/crypto/node-crypto-id-generator.js';
import { describe, expect, it } from 'vitest';
import { isSocialRefreshToken, isSocialSessionToken, newSocialRefreshToken, newSocialSessionToken } from '../../../../src/application/identity/social-tokens.js';

const ids = new NodeCryptoIdGenerator();

describe('social tokens', () => {
  it('when made, then each is 64 characters of standard base64, recognised as its own kind only', () => {
    const session = newSocialSessionToken(ids);
    const refresh = newSocialRefreshToken(ids);
    for (const t of [session, refresh]) {
      expect(t).toMatch(/^[A-Za-z0-9+/]{64}$/);
      expect(Buffer.from(t, 'base64').toString('base64')).toBe(t);
    }
    expect(isSocialSessionToken(session)).toBe(true);
    expect(isSocialRefreshToken(session)).toBe(false);
    expect(isSocialRefreshToken(refresh)).toBe(true);
    expect(isSocialSessionToken(refresh)).toBe(false);
    expect(newSocialSessionToken(ids)).not.toBe(session);
  });

  it('when a JWT or an API key is presented, then it is never taken for a social session', () => {
    expect(isSocialSessionToken('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl')).toBe(false);
    expect(isSocialSessionToken('sk_live_abcdefghijklmnopqrstuvwxyz0123456789')).toBe(false);
    expect(isSocialSessionToken(`${newSocialSessionToken(ids)}.x`)).toBe(false);
  });
});
