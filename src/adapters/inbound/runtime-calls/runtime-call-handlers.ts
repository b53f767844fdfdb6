import type { DependencyContainer } from 'tsyringe';
import type { z } from 'zod';
import { AuthorizeRuntimeChat } from '../../../application/agents/authorize-runtime-chat.use-case.js';
import type { ChatAnswer, ChatInput } from '../../../application/ai/chat-call.js';
import { CompleteChat } from '../../../application/ai/complete-chat.use-case.js';
import { StreamChat, type ChatStream } from '../../../application/ai/stream-chat.use-case.js';
import type { ChatMessage } from '../../../application/ports/ai-provider.port.js';
import { RunAgentTool, type AgentToolResult } from '../../../application/skills/run-agent-tool.use-case.js';
import { CUSTOM_MODEL } from '../../../domain/agents/agent.js';
import { runtimeChatBody, runtimeToolBody } from '../http/schemas/chat.schema.js';
import { sseFrame } from '../http/server-sent-events.js';

/**
 * The work of an agent runtime's two service calls, once the caller's gateway token is read:
 * shared by their HTTP routes (agent-callback.routes.ts) and by the in-process answers a process
 * runtime's supervisor gives (in-process-runtime-calls.ts), so the two cannot drift apart. The
 * body is checked here, after the token is known to be present; a failure is thrown (a ZodError or
 * a DomainError) for the caller's one error mapping.
 */

/** The runtime's `{content, model, usage, tool_calls?}` (agent-host-protocol.ts `RuntimeChatResult`). */
export const resultBody = (a: ChatAnswer) => ({
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
    return; // the last event: the answer ends here
  }
}

/** A chat call's answer: the JSON result, or the event stream's frames (`Accept: text/event-stream`, no tools). */
export type RuntimeChatAnswer = { kind: 'json'; body: ReturnType<typeof resultBody> } | { kind: 'events'; frames: AsyncGenerator<string> };

/**
 * One chat call of a runtime, as the agent's owner: the gateway token's grant (AuthorizeRuntimeChat),
 * then the AI layer (plan models, BYOK keys, reservation and settlement). `signal`: the caller went
 * away (the provider call is aborted, the reservation released or settled).
 */
export async function answerRuntimeChat(container: DependencyContainer, token: string, raw: unknown, stream: boolean, signal: AbortSignal): Promise<RuntimeChatAnswer> {
  const body = runtimeChatBody.parse(raw);
  const grant = await container.resolve(AuthorizeRuntimeChat).execute(token, body.agentId);
  const input: ChatInput = {
    messages: body.messages.map(chatMessage),
    model: body.model === CUSTOM_MODEL ? undefined : body.model,
    temperature: body.temperature,
    maxTokens: body.max_tokens,
    tools: body.tools,
    toolChoice: body.tool_choice,
  };
  // tools are offered on non-streamed calls only (AiProvider.stream is text only)
  if (body.tools?.length || !stream) return { kind: 'json', body: resultBody(await container.resolve(CompleteChat).execute(grant, input, signal)) };
  return { kind: 'events', frames: sseFrames(await container.resolve(StreamChat).execute(grant, input, signal)) };
}

/** One tool call of a runtime (RunAgentTool): the tool's result for the model, a refusal included. */
export function answerRuntimeTool(container: DependencyContainer, token: string, raw: unknown, signal: AbortSignal): Promise<AgentToolResult> {
  const body = runtimeToolBody.parse(raw);
  return container.resolve(RunAgentTool).execute(token, body, signal);
}

/** Whether an `Accept` header asks for a stream. */
export const acceptsEventStream = (accept: string | undefined): boolean => typeof accept === 'string' && accept.toLowerCase().includes('text/event-stream');
