import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GetInstanceStats } from '../../../../application/instances/get-instance-stats.use-case.js';
import { GetInstanceToken } from '../../../../application/instances/get-instance-token.use-case.js';
import { GetInstance } from '../../../../application/instances/get-instance.use-case.js';
import { INSTANCE_SETTINGS } from '../../../../application/ports/instance-settings.port.js';
import { RunInstanceCommand, type LifecycleCommand } from '../../../../application/instances/run-instance-command.use-case.js';
import { instanceBody, instanceStatsBody } from '../presenters/instance-presenters.js';
import { instanceParams } from '../schemas/instances.schema.js';
import type { RouteContext } from './route-context.js';
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

/**
 * /api/instance/:userId (J or S; the owner or an admin, anyone else 403). Every failure here
 * carries the spec's "Lifecycle failure body" `{success: false, status: 'error'}` beside the
 * usual `error` and `code` (401, 403, 404, 400, 429, 502, 500 alike). One RATE_LIMIT_INSTANCE
 * budget per caller.
 */
export const instanceRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { container }) => {
  const settings = container.resolve(INSTANCE_SETTINGS);
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
      answer(await container.resolve(RunInstanceCommand).execute(req.actor!, req.params.userId, command)) as Record<string, unknown>,
    );
  }

  app.get('/api/instance/:userId', { onRequest, schema: { params: instanceParams, response: { 200: instanceResponse } }, config }, async (req) =>
    instanceBody(await container.resolve(GetInstance).execute(req.actor!, req.params.userId)),
  );

  app.get('/api/instance/:userId/stats', { onRequest, schema: { params: instanceParams, response: { 200: instanceStatsResponse } }, config }, async (req) => {
    const { instance, stats } = await container.resolve(GetInstanceStats).execute(req.actor!, req.params.userId);
    return instanceStatsBody(instance, stats);
  });

  app.get('/api/instance/:userId/token', { onRequest, schema: { params: instanceParams, response: { 200: instanceTokenResponse } }, config }, async (req) => ({
    token: await container.resolve(GetInstanceToken).execute(req.actor!, req.params.userId),
  }));
};
