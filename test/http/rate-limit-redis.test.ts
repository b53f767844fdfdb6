import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { call, uniqueEmail } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await new Promise<boolean>((resolve) => {
  const u = new URL(REDIS_URL);
  const s = net.connect(Number(u.port || 6379), u.hostname, () => (s.end(), resolve(true)));
  s.on('error', () => resolve(false));
  s.setTimeout(1_000, () => (s.destroy(), resolve(false)));
});
// A client address of our own, so runs sharing the Redis never count each other's requests.
const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const forgot = (app: Awaited<ReturnType<typeof startTestApp>>['app']) =>
  call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() }, remoteAddress: ip });

describe('rate limits shared through Redis', () => {
  it.skipIf(!redisUp)(`two instances share one per-IP budget (needs Redis at ${REDIS_URL}; skipped when none answers)`, async () => {
    const env = { REDIS_URL, RATE_LIMIT_AUTH: '3' };
    const a = await startTestApp({ env });
    const b = await startTestApp({ env });
    const statuses = [(await forgot(a.app)).status, (await forgot(b.app)).status, (await forgot(a.app)).status, (await forgot(b.app)).status];
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('when Redis cannot be reached, requests still pass (the limit fails open)', async () => {
    const { app } = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:9', RATE_LIMIT_AUTH: '3' } });
    const res = await forgot(app);
    expect(res.status).toBe(200);
  });
});
