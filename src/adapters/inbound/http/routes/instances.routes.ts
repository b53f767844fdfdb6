import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GetInstanceStats } from '../../../../application/instances/get-instance-stats.use-case.js';
import type { GetInstanceToken } from '../../../../application/instances/get-instance-token.use-case.js';
import type { GetInstance } from '../../../../application/instances/get-instance.use-case.js';
import type { InstanceSettings } from '../../../../application/ports/instance-settings.port.js';
import type { RunInstanceCommand, LifecycleCommand } from '../../../../application/instances/run-instance-command.use-case.js';
import { instanceBody, instanceStatsBody } from '../presenters/instance-presenters.js';
import { instanceParams } from '../schemas/instances.schema.js';
import type { RouteEdge } from './route-context.js';
import { instanceResponse, instanceStatsResponse, instanceTokenResponse, lifecycleResponse } from '../schemas/agents.responses.js';

/** What each lifecycle call answers on success (spec "Agent lifecycle and instance"). */
const LIFECYCLE: { command: LifecycleCommand; answer: (value: unknown) => unknown }[] = [
  { command: 'start', answer: () => ({ success: true, status: 'running' }) },
  { command: 'stop', answer: () => ({ success: true, status: 'stopped' }) },
  { command: 'restart', answer: () => ({ success: true, status: 'running' }) },
  { command: 'update', answer: () => ({ success: true, status: 'running' }) },
  // "backend response passed through": the owning worker's {success, message}
  { command: 'repair', answer: (v) => v },
  { command: 'reset-memory', answer: (v) => v },
];

export interface InstanceRouteDeps {
  instanceSettings: InstanceSettings;
  runInstanceCommand: RunInstanceCommand;
  getInstance: GetInstance;
  getInstanceStats: GetInstanceStats;
  getInstanceToken: GetInstanceToken;
}

/**
 * /api/instance/:userId (J or S; the owner or an admin, anyone else 403). Every failure here
 * carries the spec's "Lifecycle failure body" `{success: false, status: 'error'}` beside the
 * usual `error` and `code` (401, 403, 404, 400, 429, 502, 500 alike). One RATE_LIMIT_INSTANCE
 * budget per caller.
 */
export const instanceRoutes: FastifyPluginAsyncZod<RouteEdge & InstanceRouteDeps> = async (app, { instanceSettings: settings, runInstanceCommand, getInstance, getInstanceStats, getInstanceToken }) => {
  const onRequest = app.rateLimit({ max: settings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `instance:${req.actor?.userId ?? req.ip}` });
  const config = { auth: 'required' as const };

  app.addHook('onSend', async (_req, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    try {
      const body = JSON.parse(payload) as Record<string, unknown>;
      return JSON.stringify({ success: false, status: 'error', ...body });
    } catch {
      return payload;
    }
  });

  for (const { command, answer } of LIFECYCLE) {
    app.post(`/api/instance/:userId/${command}`, { onRequest, schema: { params: instanceParams, response: { 200: lifecycleResponse } }, config }, async (req) =>
      answer(await runInstanceCommand.execute(req.actor!, req.params.userId, command)) as Record<string, unknown>,
    );
  }

  app.get('/api/instance/:userId', { onRequest, schema: { params: instanceParams, response: { 200: instanceResponse } }, config }, async (req) =>
    instanceBody(await getInstance.execute(req.actor!, req.params.userId)),
  );

  app.get('/api/instance/:userId/stats', { onRequest, schema: { params: instanceParams, response: { 200: instanceStatsResponse } }, config }, async (req) => {
    const { instance, stats } = await getInstanceStats.execute(req.actor!, req.params.userId);
    return instanceStatsBody(instance, stats);
  });

  app.get('/api/instance/:userId/token', { onRequest, schema: { params: instanceParams, response: { 200: instanceTokenResponse } }, config }, async (req) => ({
    token: await getInstanceToken.execute(req.actor!, req.params.userId),
  }));
};
