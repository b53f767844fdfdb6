import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuthorizationClaim, AuthorizationKey } from '../../../src/application/ports/authorization-ledger.port.js';
import type { Hex } from '../../../src/domain/gateway/transfer-authorization.js';
import { openTestPersistence } from '../../support/persistence.js';

/**
 * The EIP-3009 payments' ledger on PostgreSQL as the system role: one claim of an authorization
 * among racers, a dead holder's claim taken over only after its lease, one settlement per settler
 * nonce, the retry bound to its request, and the settler's lease held by one process at a time.
 */
const { pools, uow } = await openTestPersistence();
const ledger = <T>(work: (l: Parameters<Parameters<typeof uow.asSystem>[0]>[0]['authorizationLedger']) => Promise<T>) => uow.asSystem((s) => work(s.authorizationLedger));

const hex = (bytes: number) => `0x${randomUUID().replace(/-/g, '').repeat(4).slice(0, bytes * 2)}` as Hex;
const SETTLER = hex(20);
const binding = { plugin: 'generate-text', bodyDigest: 'ab'.repeat(32), amount: 10_000n };
function claimOf(key: AuthorizationKey = { token: hex(20), payer: hex(20), nonce: hex(32) }): AuthorizationClaim {
  return {
    key,
    signed: { authorization: { from: key.payer, to: hex(20), value: 10_000n, validAfter: 0n, validBefore: 2_000_000_000n, nonce: key.nonce }, signature: `0x${'1b'.repeat(65)}` },
    binding,
    claimToken: randomUUID(),
  };
}
const settlement = (nonce: number) => ({ settler: SETTLER, nonce, hash: hex(32), raw: `0x02${'ee'.repeat(40)}` as Hex });
const now = () => new Date();
const longAgo = () => new Date(Date.now() - 10 * 60_000);

describe('claiming an authorization', () => {
  it('when ten claim one authorization at once, then exactly one gets it', async () => {
    const first = claimOf();
    const won = await Promise.all(Array.from({ length: 10 }, () => ledger((l) => l.claim({ ...first, claimToken: randomUUID() }, now(), longAgo()))));
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('when a claim is fresh, then no one takes it over; once older than the lease and still unsigned, one may', async () => {
    const c = claimOf();
    expect(await ledger((l) => l.claim(c, longAgo(), new Date(0)))).toBe(true);
    expect(await ledger((l) => l.claim({ ...c, claimToken: randomUUID() }, now(), new Date(Date.now() - 20 * 60_000)))).toBe(false);
    const taker = { ...c, claimToken: randomUUID() };
    expect(await ledger((l) => l.claim(taker, now(), new Date(Date.now() - 60_000)))).toBe(true);
    // the first holder's record is refused: the claim is no longer its own
    expect(await ledger((l) => l.recordSubmitted(c.key, c.claimToken, settlement(900), now()))).toBe('lost');
  });

  it('when a claim was recorded, then it is never taken over nor released, however old', async () => {
    const c = claimOf();
    await ledger((l) => l.claim(c, longAgo(), new Date(0)));
    expect(await ledger((l) => l.recordSubmitted(c.key, c.claimToken, settlement(901), now()))).toBe('recorded');
    expect(await ledger((l) => l.claim({ ...c, claimToken: randomUUID() }, now(), now()))).toBe(false);
    await ledger((l) => l.release(c.key, c.claimToken));
    expect((await ledger((l) => l.find(c.key)))?.status).toBe('submitted');
    // not even the system role may delete a signed one
    await expect(pools.system.query(`delete from mpp_authorizations where nonce = $1`, [c.key.nonce])).resolves.toMatchObject({ rowCount: 0 });
  });
});

describe('settler nonces', () => {
  it('when two settlements are recorded at one settler nonce, then the second is refused and can take the next', async () => {
    const [a, b] = [claimOf(), claimOf()];
    for (const c of [a, b]) await ledger((l) => l.claim(c, now(), longAgo()));
    expect(await ledger((l) => l.recordSubmitted(a.key, a.claimToken, settlement(5), now()))).toBe('recorded');
    expect(await ledger((l) => l.recordSubmitted(b.key, b.claimToken, settlement(5), now()))).toBe('nonce-taken');
    expect(await ledger((l) => l.nextSettlerNonce(SETTLER))).toBeGreaterThanOrEqual(6);
    expect(await ledger((l) => l.recordSubmitted(b.key, b.claimToken, settlement(906), now()))).toBe('recorded');
    expect(await ledger((l) => l.unminedBefore(SETTLER, 906))).toContain(`0x02${'ee'.repeat(40)}`);
  });
});

describe('after the settlement', () => {
  it('when confirmed by two callers, then one moves it to settled; a failed call retries once for its own request only', async () => {
    const c = claimOf();
    await ledger((l) => l.claim(c, now(), longAgo()));
    const s = settlement(907);
    await ledger((l) => l.recordSubmitted(c.key, c.claimToken, s, now()));
    const moved = await Promise.all([0, 1].map(() => ledger((l) => l.markSettled(c.key, s.hash))));
    expect(moved.filter(Boolean)).toHaveLength(1);
    await ledger((l) => l.markFailed(c.key, 'the plugin failed'));
    for (const other of [{ ...binding, plugin: 'agent' }, { ...binding, bodyDigest: 'cd'.repeat(32) }, { ...binding, amount: 1n }]) {
      expect(await ledger((l) => l.claimRetry(c.key, other))).toBe(false);
    }
    const retries = await Promise.all([0, 1].map(() => ledger((l) => l.claimRetry(c.key, binding))));
    expect(retries.filter(Boolean)).toHaveLength(1);
    await ledger((l) => l.markFailed(c.key, 'again'));
    expect(await ledger((l) => l.claimRetry(c.key, binding))).toBe(false);
  });

  it('when the settlement reverted, then the authorization may be claimed anew, its old record cleared', async () => {
    const c = claimOf();
    await ledger((l) => l.claim(c, now(), longAgo()));
    const s = settlement(908);
    await ledger((l) => l.recordSubmitted(c.key, c.claimToken, s, now()));
    await ledger((l) => l.markReverted(c.key, s.hash, 'reverted'));
    const again = { ...c, claimToken: randomUUID() };
    expect(await ledger((l) => l.claim(again, now(), longAgo()))).toBe(true);
    expect(await ledger((l) => l.find(c.key))).toMatchObject({ status: 'claimed', settlement: null });
  });
});

describe("the settler's lease", () => {
  it('when held, then another holder waits until it is released or has expired', async () => {
    const settler = hex(20);
    const [a, b] = [randomUUID(), randomUUID()];
    const until = new Date(Date.now() + 30_000);
    expect(await ledger((l) => l.acquireSettler(settler, a, until, now()))).toBe(true);
    expect(await ledger((l) => l.acquireSettler(settler, b, until, now()))).toBe(false);
    await ledger((l) => l.releaseSettler(settler, b));
    expect(await ledger((l) => l.acquireSettler(settler, b, until, now()))).toBe(false);
    expect(await ledger((l) => l.acquireSettler(settler, b, until, new Date(Date.now() + 60_000)))).toBe(true);
    await ledger((l) => l.releaseSettler(settler, b));
    expect(await ledger((l) => l.acquireSettler(settler, a, until, now()))).toBe(true);
  });
});
