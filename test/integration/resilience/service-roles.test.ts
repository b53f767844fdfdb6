import { describe, expect, it } from 'vitest';
import { spawnService } from '../../support/service-process.js';

describe('SERVICE_ROLE=worker', () => {
  it('runs the job handlers without serving HTTP, and stops cleanly on SIGTERM', async () => {
    const service = await spawnService({ SERVICE_ROLE: 'worker' });
    for (let i = 0; i < 150 && !service.output.includes('"msg":"service started"'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(service.output).toContain('"role":"worker"');
    await expect(fetch(`${service.base}/health`)).rejects.toThrow();
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 60_000);
});
