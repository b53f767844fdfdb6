import { describe, expect, it } from 'vitest';
import { call } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

describe('GET /api/health and /health', () => {
  it('reports healthy with cpu, memory and uptime when load is under the thresholds', async () => {
    const { app } = await startTestApp({ env: { HEALTH_DEGRADED_PERCENT: '100', HEALTH_UNHEALTHY_PERCENT: '100' } });
    const res = await call(app, { method: 'GET', url: '/api/health' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', health: 'healthy', timestamp: expect.any(String), uptime: expect.any(Number) });
    expect(res.body.cpu).toEqual({ usage: expect.any(Number), cores: expect.any(Number) });
    expect(res.body.memory.total).toBeGreaterThan(res.body.memory.used);
    expect((await call(app, { method: 'GET', url: '/health' })).body).toMatchObject({ status: 'ok', database: 'up' });
  });

  it('answers 500 {status: error} when memory is above the unhealthy threshold', async () => {
    const { app } = await startTestApp({ env: { HEALTH_DEGRADED_PERCENT: '0', HEALTH_UNHEALTHY_PERCENT: '0' } });
    const res = await call(app, { method: 'GET', url: '/api/health' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 'error', health: 'unhealthy', timestamp: expect.any(String) });
  });

  it('reports degraded between the thresholds', async () => {
    const { app } = await startTestApp({ env: { HEALTH_DEGRADED_PERCENT: '0', HEALTH_UNHEALTHY_PERCENT: '100' } });
    expect((await call(app, { method: 'GET', url: '/api/health' })).body.health).toBe('degraded');
  });
});
