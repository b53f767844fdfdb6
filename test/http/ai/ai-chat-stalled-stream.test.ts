import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ReleaseStaleReservations } from '../../../src/application/billing/release-stale-reservations.use-case.js';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { hi, parseSse, patientBreakers, reservationsOf, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { signUpAndIn, type SignedIn } from '../../support/http-client.js';
import { sleep } from '../../support/polling.js';
import { startTestApp } from '../../support/test-app.js';

/*
 * The attack: a client opens a metered stream and stops reading it. While the service holds an
 * unsent delta, the provider's idle timer is paused, so the call lives on past RESERVATION_STALE_MS.
 * The stale sweep must not refund its units meanwhile (else they can be spent again each sweep
 * period), and the settlement at the end must charge the real amount, once.
 *
 * Small bounds: AI_TIMEOUT_MS 1 s, RESERVATION_STALE_MS 5 s (leases renewed every 1.25 s).
 */
const STALE_MS = 5_000;
const fleet = await startFakeFleet();
afterAll(() => fleet.close());
const { app, container, infra } = await startTestApp({
  env: { ...fleet.env, RATE_LIMIT_CHAT: '10000', AI_TIMEOUT_MS: '1000', RESERVATION_STALE_MS: String(STALE_MS) },
  override: patientBreakers,
});
const owner = infra.pools.owner;
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
afterAll(() => app.close());

// far more than the loopback socket buffers hold, so the service is left holding a delta
const CHUNKS = Array.from({ length: 128 }, (_, i) => `${i % 10}`.repeat(256 * 1024));
const USAGE = { prompt: 1_200, completion: 6_000 }; // 7,200 tokens: 8 units

/** A streamed chat whose reader stops after the first bytes; `resume()` reads the rest. */
async function stalledStream(user: SignedIn, sub: string) {
  const req = request(`${base}/api/ai/chat`, {
    method: 'POST',
    agent: false,
    headers: { ...user.headers, accept: 'text/event-stream', 'content-type': 'application/json', 'x-user-plan': 'network', 'x-payment-subscription-id': sub },
  });
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
    req.end(JSON.stringify({ messages: hi, model: 'openai/gpt-4o' }));
  });
  const parts: Buffer[] = [];
  await new Promise<void>((resolve) => res.once('data', (c: Buffer) => (parts.push(c), resolve())));
  res.pause();
  return {
    status: res.statusCode,
    resume: () =>
      new Promise<string>((resolve, reject) => {
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
        res.on('error', reject);
        res.resume();
      }),
  };
}


describe('POST /api/ai/chat streamed: a client that stops reading past the stale bound', () => {
  it('when the sweep runs while the call lives, then the units stay held; the end settles the real amount exactly once', async () => {
    fleet.setAll({ kind: 'reply', chunks: CHUNKS, usage: USAGE });
    const user = await signUpAndIn(app);
    const sub = await subscribe(owner, user.id, 'network');

    const stream = await stalledStream(user, sub);
    expect(stream.status).toBe(200);
    const held = (await reservationsOf(owner, user.id))[0]!;
    expect(held).toMatchObject({ status: 'open' });
    const reserved = (await unitsUsed(container, user.id)).used;
    expect(reserved).toBe(held.units);

    // the call outlives the bound twice over, the sweep running each period
    const sweep = container.resolve(ReleaseStaleReservations);
    for (let i = 0; i < 2; i++) {
      await sleep(STALE_MS + 100);
      expect(await sweep.execute()).toEqual({ released: 0 });
      expect(await reservationsOf(owner, user.id)).toEqual([{ status: 'open', units: held.units, settled_units: null }]);
    }
    expect((await owner.query(`select used_units from daily_usage where user_id = $1`, [user.id])).rows[0].used_units).toBe(reserved);

    const body = await stream.resume();
    const last = body.trimEnd().split('\n\n').at(-1)!;
    expect(parseSse(last)).toEqual([{ event: 'done', data: expect.objectContaining({ usage: expect.anything() }) }]);
    expect((await unitsUsed(container, user.id)).used).toBe(8);
    expect(await reservationsOf(owner, user.id)).toEqual([{ status: 'settled', units: held.units, settled_units: 8 }]);
    // nothing left to release: a later sweep changes nothing
    await sleep(STALE_MS + 100);
    expect(await sweep.execute()).toEqual({ released: 0 });
    expect((await unitsUsed(container, user.id)).used).toBe(8);
  }, 120_000);
});
