import { describe, expect, it } from 'vitest';
import { SendBounds, TooManySendsError } from '../../../../src/application/wallets/send-bounds.js';

/** A run that ends when told: how many are inside at once is what the bounds are about. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe('SendBounds', () => {
  it('when more runs than the total come, then only the total run at once and the rest start in order as places free', async () => {
    const bounds = new SendBounds({ total: 2, perUser: 5 });
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) => bounds.run(`user-${i}`, async () => (started.push(i), g.opened)));
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    gates[2]!.open();
    await Promise.all(runs);
  });

  it('when one user has perUser runs in flight or waiting, then the next is refused at once (429), and accepted again once one ends', async () => {
    const bounds = new SendBounds({ total: 1, perUser: 2 });
    const [a, b] = [gate(), gate()];
    const first = bounds.run('u', () => a.opened);
    const second = bounds.run('u', () => b.opened);
    await expect(bounds.run('u', async () => 'x')).rejects.toBeInstanceOf(TooManySendsError);
    // another user is not refused: it waits its turn in all
    const other = bounds.run('v', async () => 'other');
    a.open();
    await first;
    b.open();
    await second;
    expect(await other).toBe('other');
    expect(await bounds.run('u', async () => 'again')).toBe('again');
  });

  it('when a run throws, then its place is freed', async () => {
    const bounds = new SendBounds({ total: 1, perUser: 1 });
    await expect(bounds.run('u', async () => Promise.reject(new Error('node down')))).rejects.toThrow('node down');
    expect(await bounds.run('u', async () => 'next')).toBe('next');
  });
});
