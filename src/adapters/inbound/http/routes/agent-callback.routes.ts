import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChatMetering } from '../../../../application/ai/chat-metering.js';
import { runtimeChatBody, runtimeChatResultResponse, runtimeToolBody, runtimeToolResultResponse } from '../schemas/chat.schema.js';
import { eventStream } from '../openapi/route-documentation.js';
import { errorBody } from '../schemas/error.schema.js';
import type { RouteContext } from './route-context.js';
import { abortOnClientClose } from '../client-close.js';
import { bearerToken } from '../request-headers.js';
import { sendEventStream, wantsEventStream } from '../server-sent-events.js';
import { answerRuntimeChat, answerRuntimeTool } from '../../runtime-calls/runtime-call-handlers.js';

/**
 * `POST /api/runtime/chat`: the service side of an agent runtime's AI call (wire format:
 * agent-host-protocol.ts). Public in the route table because it authenticates itself: only an
 * instance's gateway token (`Authorization: Bearer <token>`) is accepted, never a user's session,
 * API key or JWT, and the gateway token is accepted nowhere else. The call goes through the AI
 * layer as the agent's owner: plan models, BYOK keys, reservation and settlement, 429
 * USAGE_EXHAUSTED (the work: runtime-call-handlers.ts, shared with a process runtime's in-process
 * answers). A provider failure is 502 PROVIDER_ERROR (the `agent` error family); no provider
 * configured is 503 PROVIDER_UNAVAILABLE (never a made-up reply). Errors are `{error, code}`.
 */
export const agentCallbackRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { container }) => {
  app.addHook('onClose', async () => container.resolve(ChatMetering).drain());
  // A runtime keeps its connection alive between answers (one connect less per message); a stopping
  // server ends connections with no request in progress, spares included (bootstrap/http-drain.ts).

  // The bodies are checked in the handlers, after the gateway token: documented, not validated first.
  const chatConfig = { auth: 'none' as const, errorFamily: 'agent' as const, openapi: { body: runtimeChatBody, media: { 200: { 'application/json': 'response' as const, 'text/event-stream': eventStream } } } };
  app.post('/api/runtime/chat', { schema: { response: { 200: runtimeChatResultResponse, '4xx': errorBody, '5xx': errorBody } }, config: chatConfig }, async (req, reply) => {
    const token = bearerToken(req.headers.authorization);
    // no credential at all is refused before the body is looked at
    if (token === undefined) return reply.status(401).send({ error: 'A gateway token is required: Authorization: Bearer <token>', code: 'AUTH_REQUIRED' });
    const answer = await answerRuntimeChat(container, token, req.body, wantsEventStream(req), abortOnClientClose(reply));
    return answer.kind === 'json' ? answer.body : sendEventStream(reply, answer.frames);
  });

  /**
   * `POST /api/runtime/tools`: runs one tool call of an agent's model for the agent's owner
   * (RunAgentTool). Authenticated exactly like /api/runtime/chat. 200 with the tool's result for the
   * model, a refusal included (`{error, code}`): only the credential (401) and the agent (404) are
   * HTTP errors.
   */
  app.post('/api/runtime/tools', { schema: { response: { 200: runtimeToolResultResponse, '4xx': errorBody } }, config: { auth: 'none', openapi: { body: runtimeToolBody } } }, async (req, reply) => {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) return reply.status(401).send({ error: 'A gateway token is required: Authorization: Bearer <token>', code: 'AUTH_REQUIRED' });
    return answerRuntimeTool(container, token, req.body, abortOnClientClose(reply));
  });
};
