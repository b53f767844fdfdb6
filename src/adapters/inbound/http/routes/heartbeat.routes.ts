import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GetHeartbeat } from '../../../../application/heartbeat/get-heartbeat.use-case.js';
import type { ResetHeartbeat } from '../../../../application/heartbeat/reset-heartbeat.use-case.js';
import type { SaveHeartbeat } from '../../../../application/heartbeat/save-heartbeat.use-case.js';
import { heartbeatFields } from '../presenters/heartbeat-presenters.js';
import { heartbeatBody } from '../schemas/heartbeat.schema.js';
import type { RouteEdge } from './route-context.js';
import { heartbeatResponse, resetHeartbeatResponse, savedHeartbeatResponse } from '../schemas/platform.responses.js';

export interface HeartbeatRouteDeps {
  getHeartbeat: GetHeartbeat;
  saveHeartbeat: SaveHeartbeat;
  resetHeartbeat: ResetHeartbeat;
}

/** /api/heartbeat (spec "Health and heartbeat", S): the caller's heartbeat settings. */
export const heartbeatRoutes: FastifyPluginAsyncZod<RouteEdge & HeartbeatRouteDeps> = async (app, { getHeartbeat, saveHeartbeat, resetHeartbeat }) => {
  const config = { auth: 'required' as const };

  app.get('/api/heartbeat', { schema: { response: { 200: heartbeatResponse } }, config }, async (req) => {
    const heartbeat = await getHeartbeat.execute(req.actor!);
    return { heartbeat: heartbeatFields(heartbeat), message: heartbeat.enabled ? `Heartbeat every ${heartbeat.frequency}` : 'Heartbeat disabled' };
  });

  app.post('/api/heartbeat', { schema: { body: heartbeatBody, response: { 200: savedHeartbeatResponse } }, config }, async (req) => {
    const saved = await saveHeartbeat.execute(req.actor!, req.body);
    return { ...heartbeatFields(saved), lastUpdated: saved.lastUpdated.toISOString(), message: 'Heartbeat settings saved' };
  });

  app.delete('/api/heartbeat', { schema: { response: { 200: resetHeartbeatResponse } }, config }, async (req) => {
    await resetHeartbeat.execute(req.actor!);
    return { success: true, message: 'Heartbeat settings reset to defaults' };
  });
};
