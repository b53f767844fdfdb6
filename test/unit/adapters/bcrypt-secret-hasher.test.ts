import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import bcryptjs from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { BcryptSecretHasher } from '../../../src/adapters/outbound/crypto/bcrypt-secret-hasher.js';

const secret = 'sk_abcdefghijklmnop_0123456789012345678901234567890123456789012';

describe('bcrypt for API keys', () => {
  it('when a key was hashed by bcryptjs ($2a$ or $2b$), then it verifies; a wrong secret or a malformed hash is false, not an error', async () => {
    const hasher = new BcryptSecretHasher(4);
    const b = await bcryptjs.hash(secret, 4);
    expect(b.startsWith('$2b$')).toBe(true);
    const a = `$2a$${b.slice(4)}`;
    expect(await hasher.verify(secret, b)).toBe(true);
    expect(await hasher.verify(secret, a)).toBe(true);
    expect(await hasher.verify(`${secret}x`, b)).toBe(false);
    expect(await hasher.verify(secret, 'not a bcrypt hash')).toBe(false);
    // and what it hashes, bcryptjs (and so any standard bcrypt) reads
    expect(await bcryptjs.compare(secret, await hasher.hash(secret))).toBe(true);
  });

  it('when 50 first uses verify at once, then at most the bound run together and the event loop stays free (the work is on the thread pool)', async () => {
    const hasher = new BcryptSecretHasher(8, 2);
    const hashes = await Promise.all(Array.from({ length: 50 }, (_, i) => hasher.hash(`${secret}${i}`)));
    let maxRunning = 0;
    let maxWaiting = 0;
    const sampler = setInterval(() => {
      maxRunning = Math.max(maxRunning, hasher.load.running);
      maxWaiting = Math.max(maxWaiting, hasher.load.waiting);
    }, 1);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const elu0 = performance.eventLoopUtilization();
    delay.enable();
    const results = await Promise.all(hashes.map((h, i) => hasher.verify(`${secret}${i}`, h)));
    delay.disable();
    const elu = performance.eventLoopUtilization(elu0);
    clearInterval(sampler);

    expect(results.every(Boolean)).toBe(true);
    expect(maxRunning).toBe(2);
    expect(maxWaiting).toBeGreaterThan(40);
    expect(hasher.load).toEqual({ running: 0, waiting: 0 });
    // 50 bcrypts of cost 8 are about a second of CPU. Run on the event loop (bcryptjs, in 100 ms chunks)
    // they keep it busy nearly all the time: utilisation about 1. On the thread pool the loop
    // mostly sleeps in epoll. Utilisation, unlike delay, barely moves when other processes load
    // the machine, so this bound is generous and still tells the two apart.
    expect(elu.utilization).toBeLessThan(0.5);
    // the loop's delay is printed for the reader: on a quiet machine its p99 stays near the 10 ms resolution
    console.info(`event loop during 50 first uses: utilisation ${elu.utilization.toFixed(3)}, delay p50 ${(delay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms`);
  });
});
