import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuthorizeRuntimeChat } from '../../../../application/agents/authorize-runtime-chat.use-case.js';
import type { ChatAnswer, ChatInput } from '../../../../application/ai/chat-call.js';
import { ChatMetering } from '../../../../application/ai/chat-metering.js';
import { CompleteChat } from '../../../../application/ai/complete-chat.use-case.js';
import { StreamChat, type ChatStream } from '../../../../application/ai/stream-chat.use-case.js';
import { CUSTOM_MODEL } from '../../../../domain/agents/agent.js';
import type { z } from 'zod';
import type { ChatMessage } from '../../../../application/ports/ai-provider.port.js';
import { RunAgentTool } from '../../../../application/skills/run-agent-tool.use-case.js';
import { runtimeChatBody, runtimeChatResultResponse, runtimeToolBody, runtimeToolResultResponse } from '../schemas/chat.schema.js';
import { eventStream } from '../openapi/route-documentation.js';
import { errorBody } from '../schemas/error.schema.js';
import type { RouteContext } from './route-context.js';
import { abortOnClientClose } from '../client-close.js';
import { bearerToken } from '../request-headers.js';
import { sendEventStream, sseFrame, wantsEventStream } from '../server-sent-events.js';

/** The runtime's `{content, model, usage, tool_calls?}` (agent-host-protocol.ts `RuntimeChatResult`). */
const resultBody = (a: ChatAnswer) => ({
  content: a.content,
  model: a.model,
  usage: { promptTokens: a.usage.promptTokens, completionTokens: a.usage.completionTokens, totalTokens: a.usage.totalTokens },
  ...(a.toolCalls?.length ? { tool_calls: a.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
});

/** The wire's OpenAI-shaped messages as the AI port's. */
const chatMessage = (m: z.infer<typeof runtimeChatBody>['messages'][number]): ChatMessage => {
  if (m.role === 'tool') return { role: 'tool', content: m.content, toolCallId: m.tool_call_id, toolName: m.name };
  if (m.role === 'assistant' && m.tool_calls?.length) return { role: 'assistant', content: m.content, toolCalls: m.tool_calls };
  return { role: m.role, content: m.content };
};

/** `delta {content}`s, then exactly one `done` (RuntimeChatResult) or `error {error, code}`. */
async function* sseFrames(stream: ChatStream): AsyncGenerator<string> {
  for await (const e of stream.events) {
    if (e.type === 'delta') {
      yield sseFrame('delta', { content: e.text });
      continue;
    }
    yield e.type === 'done' ? sseFrame('done', resultBody(e.answer)) : sseFrame('error', { error: e.message, code: e.code });
    return; // the last event: the response ends here
  }
}

/**
 * `POST /api/runtime/chat`: the service side of an agent runtime's AI call (wire format:
 * agent-host-protocol.ts). Public in the route table because it authenticates itself: only an
 * instance's gateway token (`Authorization: Bearer <token>`) is accepted, never a user's session,
 * API key or JWT, and the gateway token is accepted nowhere else. The call goes through the AI
 * layer as the agent's owner: plan models, BYOK keys, reservation and settlement, 429
 * USAGE_EXHAUSTED. A provider failure is 502 PROVIDER_ERROR (the `agent` error family); no provider
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
    const body = runtimeChatBody.parse(req.body);
    const grant = await container.resolve(AuthorizeRuntimeChat).execute(token, body.agentId);
    const input: ChatInput = {
      messages: body.messages.map(chatMessage),
      model: body.model === CUSTOM_MODEL ? undefined : body.model,
      temperature: body.temperature,
      maxTokens: body.max_tokens,
      tools: body.tools,
      toolChoice: body.tool_choice,
    };
    const signal = abortOnClientClose(reply);
    // tools are offered on non-streamed calls only (AiProvider.stream is text only)
    if (body.tools?.length || !wantsEventStream(req)) return resultBody(await container.resolve(CompleteChat).execute(grant, input, signal));
    return sendEventStream(reply, sseFrames(await container.resolve(StreamChat).execute(grant, input, signal)));
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
    const body = runtimeToolBody.parse(req.body);
    return container.resolve(RunAgentTool).execute(token, body, abortOnClientClose(reply));
  });
};
