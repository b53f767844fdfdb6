import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AGENT_CHAT_SETTINGS } from '../../../../application/ports/agent-chat-settings.port.js';
import { ListAgentMessages } from '../../../../application/agents/list-agent-messages.use-case.js';
import { SendAgentMessage } from '../../../../application/agents/send-agent-message.use-case.js';
import { agentMessageBody } from '../presenters/agent-presenters.js';
import { registerAgentSockets } from '../agent-sockets.js';
import { agentFailureResponse } from '../error-map.js';
import { chatHistoryQuery, sendMessageBody } from '../schemas/chat.schema.js';
import type { RouteContext } from './route-context.js';
import { agentMessagesResponse, chatAnsweredResponse, chatPendingResponse } from '../schemas/agents.responses.js';

/**
 * /api/chat (CONTRACT.md section 7 "talking to an agent"; S: a session, an API key or a JWT).
 * POST stores the message, queues it in the agent's mailbox and waits for the answer: 200
 * `{message, reply}`, 202 `{message, pending: true}` after AGENT_REPLY_TIMEOUT_MS, or the failure
 * (agentFailureResponse: 502 PROVIDER_ERROR, 429 USAGE_EXHAUSTED, ...) with the message kept.
 * GET pages the agent's messages. One RATE_LIMIT_CHAT budget per caller (spec Limits: /api/chat 60).
 */
export const chatRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  const { container } = ctx;
  // the agent's websocket rides on the server's upgrade event, next to the chat it carries
  registerAgentSockets(app, ctx);
  const settings = container.resolve(AGENT_CHAT_SETTINGS);
  const onRequest = app.rateLimit({ max: settings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `agent-chat:${req.actor?.userId ?? req.ip}` });
  const config = { auth: 'required' as const };

  app.post('/api/chat', { onRequest, schema: { body: sendMessageBody, response: { 200: chatAnsweredResponse, 202: chatPendingResponse } }, config }, async (req, reply) => {
    const outcome = await container.resolve(SendAgentMessage).execute(req.actor!, req.body);
    const message = agentMessageBody(outcome.message);
    if (outcome.kind === 'answered') return { message, reply: agentMessageBody(outcome.reply) };
    if (outcome.kind === 'pending') return reply.status(202).send({ message, pending: true });
    const failure = agentFailureResponse(outcome.code);
    req.log.info({ code: outcome.code, agentId: outcome.message.agentId }, 'the agent could not answer');
    // an error status the schema's 4xx/5xx error body covers; the typed reply knows only 200 and 202
    return (reply as FastifyReply).status(failure.status).send({ error: failure.error ?? outcome.error, code: failure.code, ...(failure.code !== outcome.code ? { reason: outcome.code } : {}) });
  });

  app.get('/api/chat', { onRequest, schema: { querystring: chatHistoryQuery, response: { 200: agentMessagesResponse } }, config }, async (req) => {
    const { agentId, limit, offset } = req.query;
    const page = await container.resolve(ListAgentMessages).execute(req.actor!, agentId, { limit, offset });
    return { messages: page.messages.map(agentMessageBody), total: page.total, limit, offset, status: 'ok' };
  });
};
