import { describe, expect, it } from 'vitest';
import { parseSid, sessionIdOf, sidOf, type Credential } from '../../../../src/application/auth/actor.js';

describe('the sid claim (one reading, one writing)', () => {
  it('when written from a session or an API key, then it reads back as the same origin', () => {
    expect(parseSid(sidOf({ kind: 'session', sessionId: 'abc' }))).toEqual({ kind: 'session', sessionId: 'abc' });
    expect(parseSid(sidOf({ kind: 'api-key', keyId: 'K1' }))).toEqual({ kind: 'api-key', keyId: 'K1' });
  });

  it('when a JWT is re-issued from a JWT, then its sid names the same origin', () => {
    const jwt: Credential = { kind: 'jwt', origin: { kind: 'session', sessionId: 's9' } };
    expect(sidOf(jwt)).toBe('s:s9');
  });

  it('when the sid is anything this service did not write, then it names nothing', () => {
    for (const sid of ['', 's:', 'k:', 'x:abc', 'abc', 'S:abc']) expect(parseSid(sid)).toBeNull();
  });

  it('the session behind a credential: the cookie, a JWT from a session; never an API key', () => {
    expect(sessionIdOf({ kind: 'session', sessionId: 'a' })).toBe('a');
    expect(sessionIdOf({ kind: 'jwt', origin: { kind: 'session', sessionId: 'b' } })).toBe('b');
    expect(sessionIdOf({ kind: 'api-key', keyId: 'k' })).toBeNull();
    expect(sessionIdOf({ kind: 'jwt', origin: { kind: 'api-key', keyId: 'k' } })).toBeNull();
  });
});
