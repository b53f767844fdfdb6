import { describe, expect, it } from 'vitest';
import { TooManySendsError, WalletSendBounds } from '../../../src/adapters/outbound/wallets/wallet-send-bounds.js';

/** A run that ends when told: how many are inside at once is what the bounds are about. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe('WalletSendBounds', () => {
  it('when more sends than the total come, then only the total run at once and the rest start in order as places free', async () => {
    const bounds = new WalletSendBounds({ total: 2, perWallet: 5 });
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) => bounds.send(`wallet-${i}`, async () => (started.push(i), g.opened)));
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    gates[2]!.open();
    await Promise.all(runs);
  });

  it('when one wallet has perWallet sends in flight or waiting, then the next is refused at once (429), and accepted again once one ends; a check is never refused', async () => {
    const bounds = new WalletSendBounds({ total: 1, perWallet: 2 });
    const [a, b] = [gate(), gate()];
    const first = bounds.send('u', () => a.opened);
    const second = bounds.send('u', () => b.opened);
    await expect(bounds.send('u', async () => 'x')).rejects.toBeInstanceOf(TooManySendsError);
    // another wallet is not refused, nor is a check: they wait their turn in all
    const other = bounds.send('v', async () => 'other');
    const check = bounds.check(async () => 'checked');
    a.open();
    await first;
    b.open();
    await second;
    expect([await other, await check]).toEqual(['other', 'checked']);
    expect(await bounds.send('u', async () => 'again')).toBe('again');
  });

  it('when a send throws, then its places are freed', async () => {
    const bounds = new WalletSendBounds({ total: 1, perWallet: 1 });
    await expect(bounds.send('u', async () => Promise.reject(new Error('node down')))).rejects.toThrow('node down');
    expect(await bounds.send('u', async () => 'next')).toBe('next');
  });
});
