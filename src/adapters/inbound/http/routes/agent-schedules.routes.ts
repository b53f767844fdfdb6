import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AgentSettings } from '../../../../application/ports/agent-settings.port.js';
import type { CreateAgentSchedule } from '../../../../application/schedules/create-agent-schedule.use-case.js';
import type { DeleteAgentSchedule } from '../../../../application/schedules/delete-agent-schedule.use-case.js';
import type { ListAgentSchedules } from '../../../../application/schedules/list-agent-schedules.use-case.js';
import type { ListScheduleRuns } from '../../../../application/schedules/list-schedule-runs.use-case.js';
import { scheduleBody, scheduleRunBody } from '../presenters/schedule-presenters.js';
import { agentParams } from '../schemas/agents.schema.js';
import {
  createdScheduleResponse, deletedScheduleResponse, newScheduleBody, runsQuery, scheduleListResponse, scheduleParams, scheduleRunsResponse,
} from '../schemas/agent-schedules.schema.js';
import type { RouteEdge } from './route-context.js';

export interface AgentScheduleRouteDeps {
  agentSettings: AgentSettings;
  createAgentSchedule: CreateAgentSchedule;
  listAgentSchedules: ListAgentSchedules;
  deleteAgentSchedule: DeleteAgentSchedule;
  listScheduleRuns: ListScheduleRuns;
}

/**
 * /api/agents/:id/schedules (CONTRACT.md "scheduled runs"; beyond the spec): the owner's cron
 * schedules that send a message to the agent at each tick. The agents' per-caller rate budget
 * (RATE_LIMIT_AGENTS) applies, counted for these routes on their own.
 */
export const agentScheduleRoutes: FastifyPluginAsyncZod<RouteEdge & AgentScheduleRouteDeps> = async (app, { agentSettings, createAgentSchedule, listAgentSchedules, deleteAgentSchedule, listScheduleRuns }) => {
  const onRequest = app.rateLimit({ max: agentSettings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `agent-schedules:${req.actor?.userId ?? req.ip}` });
  const config = { auth: 'required' as const };

  app.post('/api/agents/:id/schedules', {
    onRequest,
    schema: { summary: 'Schedule a message to an agent (cron, timezone)', operationId: 'createAgentSchedule', params: agentParams, body: newScheduleBody, response: { 201: createdScheduleResponse } },
    config,
  }, async (req, reply) => {
    const schedule = await createAgentSchedule.execute(req.actor!, { agentId: req.params.id, ...req.body });
    return reply.status(201).send({ schedule: scheduleBody(schedule) });
  });

  app.get('/api/agents/:id/schedules', {
    onRequest,
    schema: { summary: "An agent's schedules", operationId: 'listAgentSchedules', params: agentParams, response: { 200: scheduleListResponse } },
    config,
  }, async (req) => ({ schedules: (await listAgentSchedules.execute(req.actor!, req.params.id)).map(scheduleBody) }));

  app.delete('/api/agents/:id/schedules/:scheduleId', {
    onRequest,
    schema: { summary: "Remove one of an agent's schedules", operationId: 'deleteAgentSchedule', params: scheduleParams, response: { 200: deletedScheduleResponse } },
    config,
  }, async (req) => {
    await deleteAgentSchedule.execute(req.actor!, req.params.id, req.params.scheduleId);
    return { success: true as const };
  });

  app.get('/api/agents/:id/schedules/:scheduleId/runs', {
    onRequest,
    schema: { summary: "A schedule's last runs, sent or skipped", operationId: 'listAgentScheduleRuns', params: scheduleParams, querystring: runsQuery, response: { 200: scheduleRunsResponse } },
    config,
  }, async (req) => ({ runs: (await listScheduleRuns.execute(req.actor!, req.params.id, req.params.scheduleId, req.query.limit)).map(scheduleRunBody) }));
};
