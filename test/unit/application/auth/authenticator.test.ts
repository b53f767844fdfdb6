import { describe, expect, it } from 'vitest';
import { newApiKey } from '../../../../src/application/auth/api-key-format.js';
import { Authenticator } from '../../../../src/application/auth/authenticator.js';
import { CREDENTIAL_TTL_MS, CredentialCache, REFRESH_AFTER_MS } from '../../../../src/application/auth/credential-cache.js';
import { sha256 } from '../../../../src/application/shared/secret-tokens.js';
import { JoseTokenSigner } from '../../../../src/adapters/outbound/crypto/jose-token-signer.js';
import { NodeCryptoIdGenerator } from '../../../../src/adapters/outbound/crypto/node-crypto-id-generator.js';
import type { UserId } from '../../../../src/domain/shared/ids.js';
import { NO_KEY_LIMITS } from '../../../../src/domain/accounts/api-key-limits.js';
import { CountingSecretHasher, InMemoryCredentialLookup } from '../../../fakes/in-memory-credentials.js';
import { ManualClock } from '../../../fakes/manual-clock.js';

const userId = '11111111-1111-4111-8111-111111111111' as UserId;
const settings = { appUrl: 'http://x', adminEmails: ['boss@x.test'], testerEmails: [], referralCredits: 5 };

function world() {
  const db = new InMemoryCredentialLookup();
  const hasher = new CountingSecretHasher();
  const clock = new ManualClock();
  const signer = new JoseTokenSigner('unit-test-secret-unit-test-secret-unit');
  /** One authenticator per "process", all reading the same rows. */
  const process = () => new Authenticator(db, hasher, signer, clock, settings, new CredentialCache(clock));
  return { db, hasher, clock, signer, process };
}

async function withKey(db: InMemoryCredentialLookup, hasher: CountingSecretHasher) {
  const k = newApiKey(new NodeCryptoIdGenerator());
  db.keys.set('key-1', { keyId: 'key-1', userId, email: 'a@x.test', emailVerified: true, keyHash: await hasher.hash(k.key), lookupId: k.lookupId, limits: NO_KEY_LIMITS });
  return k.key;
}

describe('Authenticator (CONTRACT.md section 4)', () => {
  it('bcrypt runs once per key per process, even for a burst of concurrent first uses', async () => {
    const { db, hasher, process } = world();
    const key = await withKey(db, hasher);
    const a = process();
    await Promise.all(Array.from({ length: 20 }, () => a.fromApiKey(key)));
    for (let i = 0; i < 50; i++) await a.fromApiKey(key);
    expect(hasher.verifications).toBe(1);
    await process().fromApiKey(key);
    expect(hasher.verifications).toBe(2);
  });

  it('a key whose row now holds another hash is refused without trusting the memo', async () => {
    const { db, hasher, clock, process } = world();
    const key = await withKey(db, hasher);
    const a = process();
    await a.fromApiKey(key);
    db.keys.get('key-1')!.keyHash = 'h:something-else';
    clock.advance(10_001);
    await expect(a.fromApiKey(key)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('a key expires at its expiresAt though its row is still cached, and so do the JWTs issued from it; it carries its limits meanwhile', async () => {
    const { db, hasher, clock, signer, process } = world();
    const key = await withKey(db, hasher);
    const limits = { ...NO_KEY_LIMITS, dailyUnits: 5, expiresAt: new Date(clock.now().getTime() + 3_000) };
    db.keys.get('key-1')!.limits = limits;
    const a = process();
    await expect(a.fromApiKey(key)).resolves.toMatchObject({ credential: { kind: 'api-key', keyId: 'key-1', limits } });
    const jwt = await signer.sign({ userId, email: 'a@x.test', role: 'user', sid: 'k:key-1' }, 600);
    await expect(a.fromJwt(jwt)).resolves.toMatchObject({ credential: { kind: 'jwt', origin: { kind: 'api-key', keyId: 'key-1', limits } } });
    clock.advance(3_000); // within the cache's 10 seconds: the row is not read again
    await expect(a.fromApiKey(key)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await expect(a.fromJwt(jwt)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('a key deleted through another process stops working here within 10 seconds', async () => {
    const { db, hasher, clock, process } = world();
    const key = await withKey(db, hasher);
    const here = process();
    await here.fromApiKey(key);
    db.keys.delete('key-1'); // deleted by another process: no eviction reaches this one
    clock.advance(9_000);
    await expect(here.fromApiKey(key)).resolves.toMatchObject({ userId });
    clock.advance(1_001);
    await expect(here.fromApiKey(key)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('the process that revokes evicts at once', async () => {
    const { db, hasher, process } = world();
    const key = await withKey(db, hasher);
    const here = process();
    await here.fromApiKey(key);
    db.keys.delete('key-1');
    here.cache.evictKey('key-1');
    await expect(here.fromApiKey(key)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('sessions are looked up at most once per 10 seconds, and expire on time', async () => {
    const { db, clock, process } = world();
    const token = 'session-token-value';
    db.sessions.set('s1', { sessionId: 's1', userId, email: 'a@x.test', emailVerified: true, expiresAt: new Date(clock.now().getTime() + 15_000), tokenHashHex: sha256(token).toString('hex') });
    const a = process();
    for (let i = 0; i < 10; i++) expect(await a.fromSessionToken(token)).toMatchObject({ userId, credential: { kind: 'session', sessionId: 's1' } });
    expect(db.lookups).toBe(1);
    clock.advance(10_001);
    await a.fromSessionToken(token);
    expect(db.lookups).toBe(2);
    clock.advance(5_000);
    expect(await a.fromSessionToken(token)).toBeNull();
  });

  it('a known session is answered without a lookup; an unknown one, or one past the cache\'s 10 seconds, is left to the lookup; an expired one is null', async () => {
    const { db, clock, process } = world();
    const token = 'session-token-value';
    db.sessions.set('s1', { sessionId: 's1', userId, email: 'a@x.test', emailVerified: true, expiresAt: new Date(clock.now().getTime() + 15_000), tokenHashHex: sha256(token).toString('hex') });
    const a = process();
    expect(a.knownSessionActor(token)).toBeUndefined();
    expect(a.knownSessionActor('never-issued')).toBeUndefined();
    expect(db.lookups).toBe(0);
    const looked = await a.fromSessionToken(token);
    expect(a.knownSessionActor(token)).toEqual(looked);
    expect(db.lookups).toBe(1);
    // a session ended in another process: this one trusts its read for 10 seconds at most, as fromSessionToken does
    db.sessions.delete('s1');
    clock.advance(10_001);
    expect(a.knownSessionActor(token)).toBeUndefined();
    expect(await a.fromSessionToken(token)).toBeNull();
    // a session read and then expired while cached is null, not left to the lookup
    db.sessions.set('s2', { sessionId: 's2', userId, email: 'a@x.test', emailVerified: true, expiresAt: new Date(clock.now().getTime() + 5_000), tokenHashHex: sha256('other').toString('hex') });
    await a.fromSessionToken('other');
    clock.advance(5_000);
    expect(a.knownSessionActor('other')).toBeNull();
  });

  it('lastUsed is written at most once a minute per key', async () => {
    const { db, hasher, clock, process } = world();
    const key = await withKey(db, hasher);
    const a = process();
    for (let i = 0; i < 5; i++) await a.fromApiKey(key);
    clock.advance(59_000);
    await a.fromApiKey(key);
    clock.advance(2_000);
    await a.fromApiKey(key);
    expect(db.touches.length).toBe(2);
  });

  it("a JWT works while its session lives, and dies with it", async () => {
    const { db, clock, signer, process } = world();
    db.sessions.set('s1', { sessionId: 's1', userId, email: 'a@x.test', emailVerified: true, expiresAt: new Date(clock.now().getTime() + 3600_000), tokenHashHex: 'x' });
    const token = await signer.sign({ userId, email: 'a@x.test', role: 'user', sid: 's:s1' }, 600);
    const a = process();
    await expect(a.fromJwt(token)).resolves.toMatchObject({ userId, credential: { kind: 'jwt', origin: { kind: 'session', sessionId: 's1' } } });
    db.sessions.delete('s1');
    a.cache.evictSession('s1');
    await expect(a.fromJwt(token)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('an ADMIN_EMAILS address makes an admin only while it is verified, through every credential', async () => {
    const { db, hasher, clock, signer, process } = world();
    const token = 'boss-session-token';
    const session = { sessionId: 's1', userId, email: 'Boss@X.test', emailVerified: false, expiresAt: new Date(clock.now().getTime() + 3600_000), tokenHashHex: sha256(token).toString('hex') };
    db.sessions.set('s1', session);
    const k = newApiKey(new NodeCryptoIdGenerator());
    const key = { keyId: 'key-1', userId, email: 'boss@x.test', emailVerified: false, keyHash: await hasher.hash(k.key), lookupId: k.lookupId, limits: NO_KEY_LIMITS };
    db.keys.set('key-1', key);
    const jwt = await signer.sign({ userId, email: 'boss@x.test', role: 'admin', sid: 's:s1' }, 600);
    const a = process();
    await expect(a.fromSessionToken(token)).resolves.toMatchObject({ role: 'user', emailVerified: false });
    await expect(a.fromApiKey(k.key)).resolves.toMatchObject({ role: 'user', emailVerified: false });
    // the JWT's own role claim is not trusted: the live session decides
    await expect(a.fromJwt(jwt)).resolves.toMatchObject({ role: 'user', emailVerified: false });

    session.emailVerified = true;
    key.emailVerified = true;
    a.cache.evictUser(userId);
    await expect(a.fromSessionToken(token)).resolves.toMatchObject({ role: 'admin', emailVerified: true });
    await expect(a.fromApiKey(k.key)).resolves.toMatchObject({ role: 'admin', emailVerified: true });
    await expect(a.fromJwt(jwt)).resolves.toMatchObject({ role: 'admin', emailVerified: true });
  });

  it('evicting a user drops all their cached rows, and only theirs', async () => {
    const { db, clock, process } = world();
    const other = '22222222-2222-4222-8222-222222222222' as UserId;
    const at = new Date(clock.now().getTime() + 3600_000);
    db.sessions.set('s1', { sessionId: 's1', userId, email: 'a@x.test', emailVerified: true, expiresAt: at, tokenHashHex: sha256('t1').toString('hex') });
    db.sessions.set('s2', { sessionId: 's2', userId: other, email: 'b@x.test', emailVerified: true, expiresAt: at, tokenHashHex: sha256('t2').toString('hex') });
    const a = process();
    await a.fromSessionToken('t1');
    await a.fromSessionToken('t2');
    expect(db.lookups).toBe(2);
    a.cache.evictUser(userId);
    await a.fromSessionToken('t1');
    await a.fromSessionToken('t2');
    expect(db.lookups).toBe(3);
  });

  describe('a credential in use is read again in the background late in its 10 seconds', () => {
    const token = 'session-token-value';
    const live = (clock: ManualClock) => ({ sessionId: 's1', userId, email: 'a@x.test', emailVerified: true, expiresAt: new Date(clock.now().getTime() + 3600_000), tokenHashHex: sha256(token).toString('hex') });
    /** The lookup's next session read waits for `release` (a slow database). */
    const gated = (db: InMemoryCredentialLookup) => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const read = db.sessionByTokenHash.bind(db);
      db.sessionByTokenHash = async (hash) => {
        await gate;
        return read(hash);
      };
      return () => release();
    };
    const settle = () => new Promise((r) => setTimeout(r, 0));

    it('when a session is used past REFRESH_AFTER_MS, then it is read again without the request waiting, and the fresh row resets its 10 seconds', async () => {
      const { db, clock, process } = world();
      db.sessions.set('s1', live(clock));
      const a = process();
      await a.fromSessionToken(token);
      expect(db.lookups).toBe(1);
      clock.advance(REFRESH_AFTER_MS - 1_000);
      expect(a.knownSessionActor(token)).toMatchObject({ userId });
      expect(db.lookups).toBe(1);
      const release = gated(db);
      clock.advance(1_000);
      // answered from memory while the read is under way; one read however many requests
      expect(a.knownSessionActor(token)).toMatchObject({ userId });
      await expect(a.fromSessionToken(token)).resolves.toMatchObject({ userId });
      release();
      await settle();
      expect(db.lookups).toBe(2);
      clock.advance(9_000); // more than 10 s after the first read, 9 s after the second
      expect(a.knownSessionActor(token)).toMatchObject({ userId });
    });

    it('when the background read hangs, then the cached row still ends at its 10 seconds', async () => {
      const { db, clock, process } = world();
      db.sessions.set('s1', live(clock));
      const a = process();
      await a.fromSessionToken(token);
      gated(db); // never released
      clock.advance(REFRESH_AFTER_MS);
      expect(a.knownSessionActor(token)).toMatchObject({ userId });
      clock.advance(CREDENTIAL_TTL_MS - REFRESH_AFTER_MS + 1);
      expect(a.knownSessionActor(token)).toBeUndefined();
    });

    it('when a session ended in another process, then the background read drops it before its 10 seconds are up', async () => {
      const { db, clock, process } = world();
      db.sessions.set('s1', live(clock));
      const a = process();
      await a.fromSessionToken(token);
      db.sessions.delete('s1');
      clock.advance(REFRESH_AFTER_MS);
      expect(a.knownSessionActor(token)).toMatchObject({ userId }); // this request, as before
      await settle();
      expect(a.knownSessionActor(token)).toBeUndefined();
      await expect(a.fromSessionToken(token)).resolves.toBeNull();
    });

    it('when the session is revoked here while a background read of it is under way, then that read does not put it back', async () => {
      const { db, clock, process } = world();
      db.sessions.set('s1', live(clock));
      const a = process();
      await a.fromSessionToken(token);
      const release = gated(db);
      clock.advance(REFRESH_AFTER_MS);
      a.knownSessionActor(token); // starts the read, which sees the row before the revocation
      a.cache.evictSession('s1');
      release(); // the read answers the old row after the eviction
      await settle();
      expect(a.knownSessionActor(token)).toBeUndefined();
    });

    it('when an API key is used past REFRESH_AFTER_MS, then its row is read again in the background, and a key deleted elsewhere is dropped', async () => {
      const { db, hasher, clock, process } = world();
      const key = await withKey(db, hasher);
      const a = process();
      await a.fromApiKey(key);
      const before = db.lookups;
      clock.advance(REFRESH_AFTER_MS);
      await a.fromApiKey(key);
      await settle();
      expect(db.lookups).toBe(before + 1);
      db.keys.delete('key-1');
      clock.advance(REFRESH_AFTER_MS);
      await expect(a.fromApiKey(key)).resolves.toMatchObject({ userId }); // this request, from memory
      await settle();
      await expect(a.fromApiKey(key)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    });
  });
});
