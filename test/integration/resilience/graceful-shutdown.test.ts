import { describe, expect, it } from 'vitest';
import { until } from '../../support/polling.js';
import { cpuTicks } from '../../support/proc.js';
import { spawnService } from '../../support/service-process.js';

describe('SIGTERM', () => {
  it('stops accepting, finishes the request in flight, closes everything and exits 0', async () => {
    // a deliberately slow password hash keeps the registration in flight while the signal arrives
    const service = await spawnService({ ARGON2_TIME_COST: '40', ARGON2_MEMORY_KIB: '65536' });
    const { child, base, exited } = service;
    await until('the service to answer /health', 40_000, () => fetch(`${base}/health`).then((r) => r.ok, () => false));

    // What a start does after its first answer (the worker's start, say) must not pass for the
    // registration's hash below: wait until the service is idle (under 30 ms of CPU in 300 ms; on a
    // machine too loaded to show it within 20 s, go on as before).
    for (let last = cpuTicks(child.pid!), t = Date.now(); Date.now() - t < 20_000; ) {
      await new Promise((r) => setTimeout(r, 300));
      const now = cpuTicks(child.pid!);
      if (now - last < 3) break;
      last = now;
    }
    const idle = cpuTicks(child.pid!);
    const inFlight = fetch(`${base}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'slow@example.test', password: 'long enough pw' }) });
    // the registration is in flight once the service burns CPU on it (the hash)
    await until('the service to work on the registration', 10_000, () => cpuTicks(child.pid!) - idle >= 10, 10);
    child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(201);
    const code = await exited;
    if (code !== 0) console.log(service.output.slice(-3000));
    expect(code).toBe(0);
    expect(service.output).toContain('"msg":"shutting down"');
    expect(service.output).toContain('"msg":"stopped"');
    await expect(fetch(`${base}/health`)).rejects.toThrow();
  }, 60_000);
});
