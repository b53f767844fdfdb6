import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AGENT_CHAT_SETTINGS } from '../../../../application/ports/agent-chat-settings.port.js';
import { AGENT_SETTINGS } from '../../../../application/ports/agent-settings.port.js';
import { CreateAgentSession } from '../../../../application/agents/create-agent-session.use-case.js';
import { GetAgentSession } from '../../../../application/agents/get-agent-session.use-case.js';
import { ListAgentCredentials } from '../../../../application/agents/list-agent-credentials.use-case.js';
import { ListAgentSessions } from '../../../../application/agents/list-agent-sessions.use-case.js';
import { ListAgentSkills, type InstalledSkill } from '../../../../application/agents/list-agent-skills.use-case.js';
import { ReadAgentSessionMemory } from '../../../../application/agents/read-agent-session-memory.use-case.js';
import { SendAgentMessage } from '../../../../application/agents/send-agent-message.use-case.js';
import { SetAgentCredential } from '../../../../application/agents/set-agent-credential.use-case.js';
import { UpdateAgentSkill } from '../../../../application/agents/update-agent-skill.use-case.js';
import type { Actor } from '../../../../application/auth/actor.js';
import type { AgentCredentialName } from '../../../../application/ports/agent-credential-repository.port.js';
import type { AgentMessage } from '../../../../application/ports/agent-message-repository.port.js';
import type { AgentSession } from '../../../../application/ports/agent-session-repository.port.js';
import { CLOCK } from '../../../../application/ports/clock.port.js';
import { agentMessageBody } from '../presenters/agent-presenters.js';
import { agentFailureResponse } from '../error-map.js';
import { HttpEdgeError } from '../http-error.js';
import {
  AGENT_API_VERSION,
  AGENT_GET_ACTIONS,
  AGENT_POST_ACTIONS,
  agentGetQuery,
  agentGetSchemas,
  agentPostBody,
  agentPostSchemas,
  isAgentGetAction,
  isAgentPostAction,
  type AgentGetAction,
  type AgentPostAction,
} from '../schemas/agent-api.schema.js';
import type { RouteContext } from './route-context.js';
import { agentApiResponse } from '../schemas/agents.responses.js';

/** Messages of /api/agent carry their session (CONTRACT.md section 7 "/api/agent actions"). */
const sessionMessageBody = (m: AgentMessage) => ({ ...agentMessageBody(m), sessionId: m.sessionId });
const sessionBody = (s: AgentSession) => ({
  id: s.id,
  agentId: s.agentId,
  createdAt: s.createdAt.toISOString(),
  lastMessageAt: s.lastMessageAt?.toISOString() ?? null,
  messageCount: s.messageCount,
});
const credentialBody = (c: AgentCredentialName) => ({ agentId: c.agentId, name: c.name, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() });
const skillBody = (s: InstalledSkill) => ({ agentId: s.agentId, skillId: s.skillId, installedAt: s.installedAt.toISOString(), enabled: s.enabled });

/** What `endpoints` lists: each action and its parameters. */
const ENDPOINTS = {
  get: [
    { action: 'endpoints', params: [] },
    { action: 'health', params: [] },
    { action: 'sessions', params: ['agentId?'] },
    { action: 'session', params: ['sessionId'] },
    { action: 'memory', params: ['agentId'] },
    { action: 'skills', params: ['agentId?'] },
    { action: 'credentials', params: ['agentId?'] },
  ],
  post: [
    { action: 'chat', params: ['agentId', 'content', 'sessionId?'] },
    { action: 'create_session', params: ['agentId'] },
    { action: 'update_skill', params: ['agentId', 'skillId', 'enabled'] },
    { action: 'set_credential', params: ['agentId', 'name', 'value'] },
  ],
} satisfies Record<'get' | 'post', { action: string; params: string[] }[]>;

/**
 * GET and POST /api/agent (spec "Agent interaction and chat"; S: a session, an API key or a JWT).
 * The user is always the caller. `action` is parsed first (unknown: 400 UNKNOWN_ACTION), then the
 * action's own fields (400 VALIDATION_ERROR). Another user's agent or session answers 404.
 */
export const agentApiRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { container }) => {
  const config = { auth: 'required' as const };
  const settings = container.resolve(AGENT_SETTINGS);
  const chatSettings = container.resolve(AGENT_CHAT_SETTINGS);
  const clock = container.resolve(CLOCK);
  const onRequest = app.rateLimit({ max: settings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `agent-api:${req.actor?.userId ?? req.ip}` });
  // the chat action shares POST /api/chat's budget: the same path, the same cost
  const chatLimit = app.rateLimit({ max: chatSettings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `agent-chat:${req.actor?.userId ?? req.ip}` });

  app.get('/api/agent', { onRequest, schema: { querystring: agentGetQuery, response: { 200: agentApiResponse } }, config }, async (req) => {
    const action = req.query.action ?? 'endpoints';
    if (!isAgentGetAction(action)) throw new HttpEdgeError('UNKNOWN_ACTION', `Unknown action: use one of ${AGENT_GET_ACTIONS.join(', ')}`, { allowed: [...AGENT_GET_ACTIONS] });
    return getAction(req.actor!, action, req.query);
  });

  async function getAction(actor: Actor, action: AgentGetAction, query: unknown) {
    switch (action) {
      case 'endpoints':
        agentGetSchemas.endpoints.parse(query);
        return { version: AGENT_API_VERSION, runtimeVersion: settings.runtimeVersion, endpoints: ENDPOINTS };
      case 'health':
        agentGetSchemas.health.parse(query);
        return { status: 'ok', version: AGENT_API_VERSION, runtimeVersion: settings.runtimeVersion, timestamp: clock.now().toISOString() };
      case 'sessions': {
        const { agentId } = agentGetSchemas.sessions.parse(query);
        return { sessions: (await container.resolve(ListAgentSessions).execute(actor, { agentId })).map(sessionBody) };
      }
      case 'session': {
        const { sessionId } = agentGetSchemas.session.parse(query);
        const { session, messages } = await container.resolve(GetAgentSession).execute(actor, sessionId);
        return { session: { ...sessionBody(session), messages: messages.map(sessionMessageBody) } };
      }
      case 'memory': {
        const { agentId } = agentGetSchemas.memory.parse(query);
        const m = await container.resolve(ReadAgentSessionMemory).execute(actor, agentId);
        return { agentId: m.agentId, sessionId: m.sessionId, messages: m.messages.map(sessionMessageBody) };
      }
      case 'skills': {
        const { agentId } = agentGetSchemas.skills.parse(query);
        return { skills: (await container.resolve(ListAgentSkills).execute(actor, { agentId })).map(skillBody) };
      }
      case 'credentials': {
        const { agentId } = agentGetSchemas.credentials.parse(query);
        return { credentials: (await container.resolve(ListAgentCredentials).execute(actor, { agentId })).map(credentialBody) };
      }
    }
  }

  // the chat action's budget is known once the body is parsed
  const preHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    if ((req.body as { action?: unknown } | undefined)?.action === 'chat') await chatLimit.call(app, req, reply);
  };

  app.post('/api/agent', { onRequest, preHandler, schema: { body: agentPostBody, response: { 200: agentApiResponse, 201: agentApiResponse, 202: agentApiResponse } }, config }, async (req, reply) => {
    const { action } = req.body;
    if (!isAgentPostAction(action)) throw new HttpEdgeError('UNKNOWN_ACTION', `Unknown action: use one of ${AGENT_POST_ACTIONS.join(', ')}`, { allowed: [...AGENT_POST_ACTIONS] });
    return postAction(req.actor!, action, req.body, reply as FastifyReply); // sets 201, 202 or an error status
  });

  async function postAction(actor: Actor, action: AgentPostAction, body: unknown, reply: { status: (n: number) => unknown }) {
    switch (action) {
      case 'chat': {
        const { agentId, content, sessionId } = agentPostSchemas.chat.parse(body);
        const outcome = await container.resolve(SendAgentMessage).execute(actor, { agentId, content, sessionId });
        const message = sessionMessageBody(outcome.message);
        if (outcome.kind === 'answered') return { message, reply: sessionMessageBody(outcome.reply) };
        if (outcome.kind === 'pending') {
          reply.status(202);
          return { message, pending: true };
        }
        const failure = agentFailureResponse(outcome.code);
        reply.status(failure.status);
        return { error: failure.error ?? outcome.error, code: failure.code, ...(failure.code !== outcome.code ? { reason: outcome.code } : {}) };
      }
      case 'create_session': {
        const { agentId } = agentPostSchemas.create_session.parse(body);
        reply.status(201);
        return { session: sessionBody(await container.resolve(CreateAgentSession).execute(actor, agentId)) };
      }
      case 'update_skill':
        return { success: true, skill: skillBody(await container.resolve(UpdateAgentSkill).execute(actor, agentPostSchemas.update_skill.parse(body))) };
      case 'set_credential': {
        const { agentId, name, value } = agentPostSchemas.set_credential.parse(body);
        const stored = await container.resolve(SetAgentCredential).execute(actor, { agentId, name, value });
        return { success: true, credential: credentialBody(stored) };
      }
    }
  }
};
