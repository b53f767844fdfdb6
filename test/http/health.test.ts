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

  it('answers 500 {status: error} when memory is above the unhealthy threshold, while /health (for load balancers) stays 200', async () => {
    const { app } = await startTestApp({ env: { HEALTH_DEGRADED_PERCENT: '0', HEALTH_UNHEALTHY_PERCENT: '0' } });
    const res = await call(app, { method: 'GET', url: '/api/health' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 'error', health: 'unhealthy', timestamp: expect.any(String) });
    // a busy host is not a dead process: a load balancer pointed at /health keeps it in rotation
    const liveness = await call(app, { method: 'GET', url: '/health' });
    expect(liveness.status).toBe(200);
    expect(liveness.body).toEqual({ status: 'ok', database: 'up', timestamp: expect.any(String) });
  });

  it('reports degraded between the thresholds', async () => {
    const { app } = await startTestApp({ env: { HEALTH_DEGRADED_PERCENT: '0', HEALTH_UNHEALTHY_PERCENT: '100' } });
    expect((await call(app, { method: 'GET', url: '/api/health' })).body.health).toBe('degraded');
  });
});

describe('per-route request timings', () => {
  it('are recorded under the route pattern, never the raw URL', async () => {
    // thresholds out of reach: on a loaded machine /api/health would answer 500 and count as an error
    const { app, container } = await startTestApp({ env: { HEALTH_DEGRADED_PERCENT: '100', HEALTH_UNHEALTHY_PERCENT: '100' } });
    const { RouteTimings } = await import('../../src/adapters/inbound/http/plugins/route-timings.js');
    await call(app, { method: 'GET', url: '/api/health' });
    await call(app, { method: 'GET', url: '/api/health' });
    await call(app, { method: 'GET', url: '/api/keys/0f0f0f0f-0000-4000-8000-000000000000' });
    const snapshot = container.resolve(RouteTimings).snapshot();
    expect(snapshot['GET /api/health']).toMatchObject({ count: 2, errors: 0 });
    expect(snapshot['GET /api/keys/:id']).toMatchObject({ count: 1 });
    expect(Object.keys(snapshot).some((k) => k.includes('0f0f0f0f'))).toBe(false);
  });
});
