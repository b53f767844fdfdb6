import { describe, expect, it } from 'vitest';
import { isSocialRefreshToken, isSocialSessionToken, newSocialRefreshToken, newSocialSessionToken } from '../../../../src/application/identity/social-tokens.js';

describe('social tokens', () => {
  it('when made, then each is 64 characters of standard base64, recognised as its own kind only', () => {
    const session = newSocialSessionToken();
    const refresh = newSocialRefreshToken();
    for (const t of [session, refresh]) {
      expect(t).toMatch(/^[A-Za-z0-9+/]{64}$/);
      expect(Buffer.from(t, 'base64').toString('base64')).toBe(t);
    }
    expect(isSocialSessionToken(session)).toBe(true);
    expect(isSocialRefreshToken(session)).toBe(false);
    expect(isSocialRefreshToken(refresh)).toBe(true);
    expect(isSocialSessionToken(refresh)).toBe(false);
    expect(newSocialSessionToken()).not.toBe(session);
  });

  it('when a JWT or an API key is presented, then it is never taken for a social session', () => {
    expect(isSocialSessionToken('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl')).toBe(false);
    expect(isSocialSessionToken('sk_live_abcdefghijklmnopqrstuvwxyz0123456789')).toBe(false);
    expect(isSocialSessionToken(`${newSocialSessionToken()}.x`)).toBe(false);
  });
});
