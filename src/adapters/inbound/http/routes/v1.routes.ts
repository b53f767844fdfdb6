import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SendAgentMessage } from '../../../../application/agents/send-agent-message.use-case.js';
import { API_CHANNEL, type StreamAgentReply } from '../../../../application/agents/stream-agent-reply.use-case.js';
import type { AuthorizeBestPlanChat } from '../../../../application/ai/authorize-best-plan-chat.use-case.js';
import type { ChatMetering } from '../../../../application/ai/chat-metering.js';
import type { CompleteChat } from '../../../../application/ai/complete-chat.use-case.js';
import type { ListCallerModels } from '../../../../application/agents/list-caller-models.use-case.js';
import type { StreamChat } from '../../../../application/ai/stream-chat.use-case.js';
import type { AiSettings } from '../../../../application/ports/ai-settings.port.js';
import { abortOnClientClose } from '../client-close.js';
import { agentIdOf, agentQuestionOf, chatInputOf } from '../openai-request.js';
import { agentChunks, agentCompletionBody, answerChunks, completionBody, modelListBody, streamChunks } from '../presenters/openai-presenters.js';
import { sendEventStream } from '../server-sent-events.js';
import { chatCompletionChunks, chatCompletionResponse, modelListResponse, openAiErrorResponse, v1ChatBody } from '../schemas/v1.schema.js';
import type { RouteEdge } from './route-context.js';

export interface V1RouteDeps {
  aiSettings: AiSettings;
  chatMetering: Pick<ChatMetering, 'drain'>;
  listCallerModels: ListCallerModels;
  authorizeBestPlanChat: AuthorizeBestPlanChat;
  completeChat: CompleteChat;
  streamChat: StreamChat;
  sendAgentMessage: Pick<SendAgentMessage, 'execute'>;
  streamAgentReply: StreamAgentReply;
}

const errors = { '4xx': openAiErrorResponse, '5xx': openAiErrorResponse };

/**
 * The OpenAI-compatible API (CONTRACT.md "OpenAI-compatible API"), for any OpenAI client library
 * pointed at `<APP_URL>/v1` with an API key or JWT: only a Bearer credential (no cookie, so no
 * CSRF), OpenAI's objects and OpenAI's error bodies (the `openai` error family). A catalog model's
 * completion is `/api/ai/chat`'s call, through the same use cases (gate, reservation, BYOK,
 * fallback, settlement), paid by the caller's best plan; `agent/<id>` asks the caller's agent
 * through its mailbox, as POST /api/chat does. Shares `/api/ai/chat`'s rate limit per caller.
 */
export const v1Routes: FastifyPluginAsyncZod<RouteEdge & V1RouteDeps> = async (app, deps) => {
  const { aiSettings, listCallerModels, authorizeBestPlanChat, completeChat, streamChat, sendAgentMessage, streamAgentReply } = deps;
  app.addHook('onClose', async () => deps.chatMetering.drain());
  const config = { auth: 'bearer' as const, errorFamily: 'openai' as const };

  app.get('/v1/models', { schema: { response: { 200: modelListResponse, ...errors } }, config }, async (req) => modelListBody(await listCallerModels.execute(req.actor!)));

  app.post(
    '/v1/chat/completions',
    {
      schema: { body: v1ChatBody, response: { 200: chatCompletionResponse, ...errors } },
      config: {
        ...config,
        rateLimit: { max: aiSettings.chatRateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => req.actor?.userId ?? req.ip },
        openapi: { media: { 200: { 'application/json': 'response', 'text/event-stream': chatCompletionChunks } } },
      },
    },
    async (req, reply) => {
      const { body } = req;
      const actor = req.actor!;
      const includeUsage = body.stream_options?.include_usage === true;
      const agentId = agentIdOf(body.model);
      if (agentId !== null) {
        const question = agentQuestionOf(body, agentId);
        if (!body.stream) return agentCompletionBody(await sendAgentMessage.execute(actor, question, { channel: API_CHANNEL }), body.model);
        return sendEventStream(reply, agentChunks(await streamAgentReply.execute(actor, question), body.model, includeUsage));
      }
      const input = chatInputOf(body);
      const grant = authorizeBestPlanChat.execute(actor);
      const signal = abortOnClientClose(reply);
      if (!body.stream) return completionBody(await completeChat.execute(grant, input, signal));
      // provider streams carry text only: a call offering tools is answered whole, then told as chunks
      if (input.tools?.length) return sendEventStream(reply, answerChunks(await completeChat.execute(grant, input, signal), includeUsage));
      return sendEventStream(reply, streamChunks(await streamChat.execute(grant, input, signal), includeUsage));
    },
  );
};
