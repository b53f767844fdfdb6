import { describe, expect, inject, it } from 'vitest';
import { call, uniqueEmail } from '../support/http-client.js';
import { until } from '../support/polling.js';
import { startCuttableRelay } from '../support/redis-server.js';
import { startTestApp } from '../support/test-app.js';

const REDIS_URL = inject('redisUrl');
// A client address of our own, so runs sharing the Redis never count each other's requests.
const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const forgot = (app: Awaited<ReturnType<typeof startTestApp>>['app'], ip: string) =>
  call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() }, remoteAddress: ip });

/**
 * The Redis client connects in the background and the limiter fails open until it is ready: wait
 * until an address of its own is refused, so the assertions start with the store in force.
 */
async function untilLimiting(app: Awaited<ReturnType<typeof startTestApp>>['app']) {
  const probe = randomIp();
  await until('the limiter to refuse (Redis ready)', 10_000, async () => (await forgot(app, probe)).status === 429, 20);
}

describe('rate limits shared through Redis', () => {
  it('needs a Redis (the global setup finds or starts one)', () => {
    expect(REDIS_URL, 'no Redis: see the [test-db] lines at the start of the run').not.toBe('');
  });

  it('when two instances share one Redis, then they share one per-IP budget', async () => {
    const env = { REDIS_URL, RATE_LIMIT_AUTH: '3' };
    const a = await startTestApp({ env });
    const b = await startTestApp({ env });
    await untilLimiting(a.app);
    await untilLimiting(b.app);
    const ip = randomIp();
    const statuses = [(await forgot(a.app, ip)).status, (await forgot(b.app, ip)).status, (await forgot(a.app, ip)).status, (await forgot(b.app, ip)).status];
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('when Redis becomes unreachable, then the instance that was limiting lets requests through (fails open)', async () => {
    const relay = await startCuttableRelay(new URL(REDIS_URL));
    const { app } = await startTestApp({ env: { REDIS_URL: relay.url, RATE_LIMIT_AUTH: '2' } });
    await untilLimiting(app);
    const ip = randomIp();
    // the limiter is really in force through this address...
    expect([(await forgot(app, ip)).status, (await forgot(app, ip)).status, (await forgot(app, ip)).status]).toEqual([200, 200, 429]);
    // ...and once the store is gone, the same client is served rather than refused
    await relay.cut();
    expect((await forgot(app, ip)).status).toBe(200);
    expect((await forgot(app, ip)).status).toBe(200);
  });
});
