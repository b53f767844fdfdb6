import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AgentChatSettings } from '../../../../application/ports/agent-chat-settings.port.js';
import type { AgentSettings } from '../../../../application/ports/agent-settings.port.js';
import type { CreateAgentSession } from '../../../../application/agents/create-agent-session.use-case.js';
import type { GetAgentSession } from '../../../../application/agents/get-agent-session.use-case.js';
import type { ListAgentCredentials } from '../../../../application/agents/list-agent-credentials.use-case.js';
import type { ListAgentSessions } from '../../../../application/agents/list-agent-sessions.use-case.js';
import type { InstalledSkill, ListAgentSkills } from '../../../../application/agents/list-agent-skills.use-case.js';
import type { ReadAgentSessionMemory } from '../../../../application/agents/read-agent-session-memory.use-case.js';
import type { SendAgentMessage } from '../../../../application/agents/send-agent-message.use-case.js';
import type { SetAgentCredential } from '../../../../application/agents/set-agent-credential.use-case.js';
import type { UpdateAgentSkill } from '../../../../application/agents/update-agent-skill.use-case.js';
import type { Actor } from '../../../../application/auth/actor.js';
import type { AgentCredentialName } from '../../../../application/ports/agent-credential-repository.port.js';
import type { AgentMessage } from '../../../../application/ports/agent-message-repository.port.js';
import type { AgentSession } from '../../../../application/ports/agent-session-repository.port.js';
import type { Clock } from '../../../../application/ports/clock.port.js';
import { agentFailureBody, agentMessageBody } from '../presenters/agent-presenters.js';
import { AgentAnswerFailedError, HttpEdgeError } from '../http-error.js';
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
import type { RouteEdge } from './route-context.js';
import { agentApiResponse } from '../schemas/agents.responses.js';

export interface AgentApiRouteDeps {
  agentSettings: AgentSettings;
  chatSettings: AgentChatSettings;
  clock: Clock;
  listAgentSessions: ListAgentSessions;
  getAgentSession: GetAgentSession;
  readAgentSessionMemory: ReadAgentSessionMemory;
  listAgentSkills: ListAgentSkills;
  listAgentCredentials: ListAgentCredentials;
  sendAgentMessage: SendAgentMessage;
  createAgentSession: CreateAgentSession;
  updateAgentSkill: UpdateAgentSkill;
  setAgentCredential: SetAgentCredential;
}

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
 * The chat action answers as POST /api/chat does, its failure on the `agent` family included.
 */
export const agentApiRoutes: FastifyPluginAsyncZod<RouteEdge & AgentApiRouteDeps> = async (app, deps) => {
  const { agentSettings: settings, chatSettings, clock } = deps;
  const config = { auth: 'required' as const };
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
        return { sessions: (await deps.listAgentSessions.execute(actor, { agentId })).map(sessionBody) };
      }
      case 'session': {
        const { sessionId } = agentGetSchemas.session.parse(query);
        const { session, messages } = await deps.getAgentSession.execute(actor, sessionId);
        return { session: { ...sessionBody(session), messages: messages.map(sessionMessageBody) } };
      }
      case 'memory': {
        const { agentId } = agentGetSchemas.memory.parse(query);
        const m = await deps.readAgentSessionMemory.execute(actor, agentId);
        return { agentId: m.agentId, sessionId: m.sessionId, messages: m.messages.map(sessionMessageBody) };
      }
      case 'skills': {
        const { agentId } = agentGetSchemas.skills.parse(query);
        return { skills: (await deps.listAgentSkills.execute(actor, { agentId })).map(skillBody) };
      }
      case 'credentials': {
        const { agentId } = agentGetSchemas.credentials.parse(query);
        return { credentials: (await deps.listAgentCredentials.execute(actor, { agentId })).map(credentialBody) };
      }
    }
  }

  // the chat action's budget is known once the body is parsed
  const preHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    if ((req.body as { action?: unknown } | undefined)?.action === 'chat') await chatLimit.call(app, req, reply);
  };

  const postResponse = { 200: agentApiResponse, 201: agentApiResponse, 202: agentApiResponse };
  app.post('/api/agent', { onRequest, preHandler, schema: { body: agentPostBody, response: postResponse }, config: { ...config, errorFamily: 'agent' } }, async (req, reply) => {
    const { action } = req.body;
    if (!isAgentPostAction(action)) throw new HttpEdgeError('UNKNOWN_ACTION', `Unknown action: use one of ${AGENT_POST_ACTIONS.join(', ')}`, { allowed: [...AGENT_POST_ACTIONS] });
    return postAction(req.actor!, action, req.body, reply as FastifyReply); // sets the success statuses 201 and 202
  });

  async function postAction(actor: Actor, action: AgentPostAction, body: unknown, reply: { status: (n: number) => unknown }) {
    switch (action) {
      case 'chat': {
        const { agentId, content, sessionId } = agentPostSchemas.chat.parse(body);
        const outcome = await deps.sendAgentMessage.execute(actor, { agentId, content, sessionId });
        const message = sessionMessageBody(outcome.message);
        if (outcome.kind === 'answered') return { message, reply: sessionMessageBody(outcome.reply) };
        if (outcome.kind === 'pending') {
          reply.status(202);
          return { message, pending: true };
        }
        throw new AgentAnswerFailedError(agentFailureBody(outcome.code, outcome.error));
      }
      case 'create_session': {
        const { agentId } = agentPostSchemas.create_session.parse(body);
        reply.status(201);
        return { session: sessionBody(await deps.createAgentSession.execute(actor, agentId)) };
      }
      case 'update_skill':
        return { success: true, skill: skillBody(await deps.updateAgentSkill.execute(actor, agentPostSchemas.update_skill.parse(body))) };
      case 'set_credential': {
        const { agentId, name, value } = agentPostSchemas.set_credential.parse(body);
        const stored = await deps.setAgentCredential.execute(actor, { agentId, name, value });
        return { success: true, credential: credentialBody(stored) };
      }
    }
  }
};
