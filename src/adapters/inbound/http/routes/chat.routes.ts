import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AgentChatSettings } from '../../../../application/ports/agent-chat-settings.port.js';
import type { ListAgentMessages } from '../../../../application/agents/list-agent-messages.use-case.js';
import { agentFailureBody, agentMessageBody } from '../presenters/agent-presenters.js';
import { registerAgentSockets, type AgentSocketDeps } from '../agent-sockets.js';
import { AgentAnswerFailedError } from '../http-error.js';
import { chatHistoryQuery, sendMessageBody } from '../schemas/chat.schema.js';
import type { RouteEdge } from './route-context.js';
import { agentMessagesResponse, chatAnsweredResponse, chatPendingResponse } from '../schemas/agents.responses.js';

export interface ChatRouteDeps extends AgentSocketDeps {
  chatSettings: AgentChatSettings;
  listAgentMessages: ListAgentMessages;
}

/**
 * /api/chat (CONTRACT.md section 7 "talking to an agent"; S: a session, an API key or a JWT).
 * POST stores the message, queues it in the agent's mailbox and waits for the answer: 200
 * `{message, reply}`, 202 `{message, pending: true}` after AGENT_REPLY_TIMEOUT_MS, or the failure
 * (error-map.ts `agentFailure` on the `agent` family: 502 PROVIDER_ERROR, 429 USAGE_EXHAUSTED, ...)
 * with the message kept. GET pages the agent's messages. One RATE_LIMIT_CHAT budget per caller
 * (spec Limits: /api/chat 60).
 */
export const chatRoutes: FastifyPluginAsyncZod<RouteEdge & ChatRouteDeps> = async (app, ctx) => {
  const { chatSettings, listAgentMessages, sendAgentMessage } = ctx;
  // the agent's websocket rides on the server's upgrade event, next to the chat it carries
  registerAgentSockets(app, ctx);
  const onRequest = app.rateLimit({ max: chatSettings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `agent-chat:${req.actor?.userId ?? req.ip}` });
  const config = { auth: 'required' as const };

  const response = { 200: chatAnsweredResponse, 202: chatPendingResponse };
  app.post('/api/chat', { onRequest, schema: { body: sendMessageBody, response }, config: { ...config, errorFamily: 'agent' } }, async (req, reply) => {
    const outcome = await sendAgentMessage.execute(req.actor!, req.body);
    const message = agentMessageBody(outcome.message);
    if (outcome.kind === 'answered') return { message, reply: agentMessageBody(outcome.reply) };
    if (outcome.kind === 'pending') return reply.status(202).send({ message, pending: true });
    req.log.info({ code: outcome.code, agentId: outcome.message.agentId }, 'the agent could not answer');
    throw new AgentAnswerFailedError(agentFailureBody(outcome.code, outcome.error));
  });

  app.get('/api/chat', { onRequest, schema: { querystring: chatHistoryQuery, response: { 200: agentMessagesResponse } }, config }, async (req) => {
    const { agentId, limit, offset } = req.query;
    const page = await listAgentMessages.execute(req.actor!, agentId, { limit, offset });
    return { messages: page.messages.map(agentMessageBody), total: page.total, limit, offset, status: 'ok' };
  });
};
