import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GetHealth } from '../../../../application/health/get-health.use-case.js';
import type { DatabasePing } from '../../../../application/ports/database-ping.port.js';
import type { RouteEdge } from './route-context.js';
import { healthResponse, livenessResponse, unhealthyResponse } from '../schemas/platform.responses.js';

export interface HealthRouteDeps {
  getHealth: GetHealth;
  databasePing: DatabasePing;
}

/** GET /api/health (host load, the spec's thresholds) and /health (liveness for the platform). */
export const healthRoutes: FastifyPluginAsyncZod<RouteEdge & HealthRouteDeps> = async (app, { getHealth, databasePing }) => {
  app.get('/api/health', { schema: { response: { 200: healthResponse, 500: unhealthyResponse } }, config: { auth: 'none' } }, async (_req, reply) => {
    const r = getHealth.execute();
    const timestamp = new Date().toISOString();
    if (r.health === 'unhealthy') return reply.status(500).send({ status: 'error', health: r.health, timestamp });
    const { cpu, memory } = r;
    return {
      status: 'ok',
      health: r.health,
      timestamp,
      cpu: { usage: cpu.usage, cores: cpu.cores },
      memory: { usage: memory.usage, total: memory.total, used: memory.used, free: memory.free },
      uptime: r.uptime,
    };
  });

  app.get('/health', { schema: { response: { 200: livenessResponse, 503: livenessResponse } }, config: { auth: 'none' } }, async (_req, reply) => {
    const database = await databasePing.ping();
    return reply.status(database ? 200 : 503).send({ status: database ? 'ok' : 'error', database: database ? 'up' : 'down', timestamp: new Date().toISOString() });
  });
};
