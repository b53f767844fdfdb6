import { describe, expect, it } from 'vitest';
import { UsageReservations } from '../../../../src/application/billing/usage-reservations.js';
import type { UsageMeter, UsageReservation } from '../../../../src/application/ports/usage-meter.port.js';
import type { UserId } from '../../../../src/domain/shared/ids.js';
import { sleep } from '../../../support/polling.js';

/** A meter whose closing fails while `down` is set; records renewals, closings and refused closings. */
class FlakyMeter implements UsageMeter {
  down = false;
  refused = 0;
  readonly renewed: string[][] = [];
  readonly closings: string[] = [];
  readonly closed = new Set<string>();
  private next = 0;
  async reserve(payer: UserId, units: number): Promise<UsageReservation> {
    return { id: `r${++this.next}`, payer, units, day: '2026-11-27' };
  }
  async reserveWithChatAccess(payer: UserId, units: number) {
    return { taken: await this.reserve(payer, units), chatAccess: { subscriptions: [], byokProviders: [] }, available: 0 };
  }
  async reserveWithRuntimeCaller(payer: UserId, units: number) {
    return { taken: await this.reserve(payer, units), caller: null, available: 0 };
  }
  async settle(r: Pick<UsageReservation, 'id'>, units: number) {
    return this.close(r.id, `settle ${r.id} ${units}`);
  }
  async release(r: Pick<UsageReservation, 'id'>) {
    return this.close(r.id, `release ${r.id}`);
  }
  async releaseStale() {
    return false;
  }
  async renew(ids: readonly string[]) {
    if (this.down) throw new Error('connection refused');
    this.renewed.push([...ids]);
    return ids.length;
  }
  async openBefore() {
    return [];
  }
  async usage() {
    return { dailyUnits: 0, used: 0, remaining: 0, credits: 0 };
  }
  private close(id: string, what: string) {
    if (this.down) {
      this.refused++;
      return Promise.reject(new Error('connection refused'));
    }
    this.closings.push(what);
    if (this.closed.has(id)) return Promise.resolve(false);
    this.closed.add(id);
    return Promise.resolve(true);
  }
}

const settings = { renewEveryMs: 20, retryMs: 10, maxRetryMs: 40, giveUpAfterMs: 60_000 };
const log = { debug() {}, info() {}, warn() {}, error() {} };
const payer = 'u1' as UserId;

describe('UsageReservations', () => {
  it('renews the leases of the reservations its calls hold, one statement for all, until each is closed', async () => {
    const meter = new FlakyMeter();
    const book = new UsageReservations(meter, settings, log);
    const a = await book.reserve(payer, 3);
    const b = await book.reserve(payer, 5);
    await expect.poll(() => meter.renewed.length, { timeout: 2_000, interval: 5 }).toBeGreaterThanOrEqual(2);
    expect(meter.renewed.at(-1)).toEqual([a.id, b.id]);
    await book.settle(a, 2);
    await expect.poll(() => meter.renewed.at(-1), { timeout: 2_000, interval: 5 }).toEqual([b.id]);
    await book.release(b);
    const renewals = meter.renewed.length;
    await sleep(50); // a negative: two renewal periods (20 ms) pass with nothing held, so no timer runs
    expect(meter.renewed.length).toBe(renewals);
    expect(book.held).toBe(0);
  });

  it('when the database refuses a settlement, then it resolves anyway, keeps the lease and settles once the database answers', async () => {
    const meter = new FlakyMeter();
    const book = new UsageReservations(meter, settings, log);
    const r = await book.reserve(payer, 4);
    meter.down = true;
    await book.settle(r, 3); // the first attempt failed; the call is not held up
    expect(meter.closings).toEqual([]);
    expect(book.held).toBe(1);
    // the outage outlasts a few retries
    await expect.poll(() => meter.refused, { timeout: 1_000, interval: 5 }).toBeGreaterThanOrEqual(3);
    meter.down = false;
    await expect.poll(() => meter.closings, { timeout: 1_000, interval: 10 }).toEqual([`settle ${r.id} 3`]);
    await book.drain();
    expect(book.held).toBe(0);
    await sleep(60); // a negative: longer than the longest retry delay (40 ms), and still charged once
    expect(meter.closings).toEqual([`settle ${r.id} 3`]);
  });

  it('dispatchSettle resolves as soon as the settlement is handed to the database, before it commits; it closes once', async () => {
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const meter = new (class extends FlakyMeter {
      override async settle(r: Pick<UsageReservation, 'id'>, units: number, handedOver?: () => void) {
        handedOver?.();
        await committed;
        return super.settle(r, units);
      }
    })();
    const book = new UsageReservations(meter, settings, log);
    const r = await book.reserve(payer, 4);
    await book.dispatchSettle(r, 3);
    expect(meter.closings).toEqual([]); // on its way, not committed
    expect(book.held).toBe(1);
    commit();
    await book.drain();
    expect(meter.closings).toEqual([`settle ${r.id} 3`]);
    expect(book.held).toBe(0);
  });

  it('when the database refuses a dispatched settlement, then dispatchSettle resolves anyway and the settlement is retried until it goes through', async () => {
    const meter = new FlakyMeter();
    const book = new UsageReservations(meter, settings, log);
    const r = await book.reserve(payer, 4);
    meter.down = true;
    await book.dispatchSettle(r, 3);
    expect(meter.closings).toEqual([]);
    meter.down = false;
    await expect.poll(() => meter.closings, { timeout: 1_000, interval: 10 }).toEqual([`settle ${r.id} 3`]);
    await book.drain();
    expect(book.held).toBe(0);
  });

  it('when the process shuts down during an outage, then drain tries once more at once and then leaves the reservation to the stale sweep', async () => {
    const meter = new FlakyMeter();
    const book = new UsageReservations(meter, { ...settings, retryMs: 60_000, maxRetryMs: 60_000 }, log);
    const r = await book.reserve(payer, 4);
    meter.down = true;
    await book.release(r);
    const started = Date.now();
    await book.drain();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(book.held).toBe(0);
    expect(meter.closings).toEqual([]);
  });
});
