import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatMetering } from '../../../../application/ai/chat-metering.js';
import type { HostCallKind } from '../../../../application/ports/host-calls.port.js';
import { runtimeChatBody, runtimeChatResultResponse, runtimeToolBody, runtimeToolResultResponse } from '../schemas/chat.schema.js';
import { eventStream } from '../openapi/route-documentation.js';
import { errorBody } from '../schemas/error.schema.js';
import type { RouteEdge } from './route-context.js';
import { abortOnClientClose } from '../client-close.js';
import { bearerToken } from '../request-headers.js';
import { sendEventStream, wantsEventStream } from '../server-sent-events.js';
import { HOST_CALL_ERROR_FAMILY, HostCallDoor, type HostCallDeps } from '../../host-calls/host-call-door.js';

/** What the agent host's door over HTTP needs: the door's use cases, and the metering it drains on close. */
export interface AgentCallbackRouteDeps extends HostCallDeps {
  chatMetering: Pick<ChatMetering, 'drain'>;
}

/**
 * The HTTP transport of the door for the agent host's calls to the service (host-calls/): `POST
 * /api/runtime/chat` (the agent's model call, wire format: agent-host-protocol.ts) and `POST
 * /api/runtime/tools` (one tool call, RunAgentTool). Public in the route table because the door
 * authenticates the call itself: only an instance's gateway token (`Authorization: Bearer
 * <token>`) is accepted, never a user's session, API key or JWT, and the gateway token is accepted
 * nowhere else. The body reaches the door as text and is read there, as on the relayed transport,
 * so the two cannot drift apart. Chat: a provider failure is 502 PROVIDER_ERROR (the `agent` error
 * family); no provider configured is 503 PROVIDER_UNAVAILABLE. Tools: 200 with the tool's result
 * for the model, a refusal included; only the credential (401) and the agent (404) are HTTP errors.
 */
export const agentCallbackRoutes: FastifyPluginAsyncZod<RouteEdge & AgentCallbackRouteDeps> = async (app, deps) => {
  app.addHook('onClose', async () => deps.chatMetering.drain());
  // A runtime keeps its connection alive between answers (one connect less per message); a stopping
  // server ends connections with no request in progress, spares included (bootstrap/http-drain.ts).

  // This scope's JSON bodies stay text for the door (Fastify still enforces the body limit first).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const door = new HostCallDoor(deps);
  /** The call as the door takes it: the Bearer token, whether a stream is asked for, the body's text. */
  const call = <K extends HostCallKind>(kind: K, req: FastifyRequest, reply: FastifyReply) =>
    door.answer({ kind, token: bearerToken(req.headers.authorization), stream: wantsEventStream(req), body: typeof req.body === 'string' ? req.body : '' }, abortOnClientClose(reply));

  // The bodies are read by the door, after the gateway token: documented here, not validated first.
  const chatConfig = { auth: 'none' as const, errorFamily: HOST_CALL_ERROR_FAMILY.chat, openapi: { body: runtimeChatBody, media: { 200: { 'application/json': 'response' as const, 'text/event-stream': eventStream } } } };
  app.post('/api/runtime/chat', { schema: { response: { 200: runtimeChatResultResponse, '4xx': errorBody, '5xx': errorBody } }, config: chatConfig }, async (req, reply) => {
    const answer = await call('chat', req, reply);
    return answer.kind === 'json' ? answer.body : sendEventStream(reply, answer.frames);
  });
  app.post('/api/runtime/tools', { schema: { response: { 200: runtimeToolResultResponse, '4xx': errorBody } }, config: { auth: 'none', openapi: { body: runtimeToolBody } } }, async (req, reply) => (await call('tools', req, reply)).body);
};
