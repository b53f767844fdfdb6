import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openTestPersistence } from '../../support/persistence.js';

/**
 * A challenge consumed on its own (MPP's evm authorization, decision 0437) on PostgreSQL as the
 * system role: one of any number of racers consumes it, never once expired; giving it back undoes
 * only that consumption, and never once a transaction-hash payment names the challenge.
 */
const { pools, uow } = await openTestPersistence();
const ledger = <T>(work: (l: Parameters<Parameters<typeof uow.asSystem>[0]>[0]['mppLedger']) => Promise<T>) => uow.asSystem((s) => work(s.mppLedger));

async function challenge(expiresInMs = 5 * 60_000) {
  const nonce = randomBytes(24).toString('base64url');
  const issuedAt = new Date();
  await ledger((l) =>
    l.saveChallenge({ nonce, plugin: 'generate-text', amount: 10_000n, token: `0x${'11'.repeat(20)}`, recipient: `0x${'22'.repeat(20)}`, bodyDigest: 'ab'.repeat(32), issuedAt, expiresAt: new Date(issuedAt.getTime() + expiresInMs) }),
  );
  return nonce;
}
const consumedAt = async (nonce: string) => (await pools.owner.query('select consumed_at from mpp_challenges where nonce = $1', [nonce])).rows[0].consumed_at as Date | null;

describe('consuming a challenge alone', () => {
  it('when twenty consume one challenge at once, then exactly one does', async () => {
    const nonce = await challenge();
    const won = await Promise.all(Array.from({ length: 20 }, () => ledger((l) => l.consumeChallenge(nonce, new Date()))));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect((await ledger((l) => l.findChallenge(nonce)))?.consumed).toBe(true);
  });

  it('when the challenge has expired, then no one consumes it', async () => {
    const nonce = await challenge(-1000);
    expect(await ledger((l) => l.consumeChallenge(nonce, new Date()))).toBe(false);
    expect(await ledger((l) => l.consumeChallenge('x'.repeat(32), new Date()))).toBe(false);
  });
});

describe('giving a challenge back', () => {
  it('when the consumption is given back, then the challenge is payable again, once', async () => {
    const nonce = await challenge();
    const at = new Date();
    expect(await ledger((l) => l.consumeChallenge(nonce, at))).toBe(true);
    await ledger((l) => l.releaseChallenge(nonce, at));
    expect(await consumedAt(nonce)).toBeNull();
    expect(await ledger((l) => l.consumeChallenge(nonce, new Date()))).toBe(true);
  });

  it('when another consumption is named (another time), then nothing is undone', async () => {
    const nonce = await challenge();
    const at = new Date();
    await ledger((l) => l.consumeChallenge(nonce, at));
    await ledger((l) => l.releaseChallenge(nonce, new Date(at.getTime() - 1)));
    expect(await consumedAt(nonce)).not.toBeNull();
  });

  it('when a transaction-hash payment consumed the challenge, then it is never given back', async () => {
    const nonce = await challenge();
    const at = new Date();
    expect(await ledger((l) => l.consume({ nonce, txHash: `0x${randomBytes(32).toString('hex')}`, payer: `0x${'33'.repeat(20)}`, amount: 10_000n, plugin: 'generate-text' }, at))).toBe('consumed');
    await ledger((l) => l.releaseChallenge(nonce, at));
    expect(await consumedAt(nonce)).not.toBeNull();
  });
});
