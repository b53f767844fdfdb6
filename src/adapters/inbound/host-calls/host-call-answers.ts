import type { z } from 'zod';
import type { AuthorizeRuntimeChat } from '../../../application/agents/authorize-runtime-chat.use-case.js';
import type { ChatAnswer, ChatInput } from '../../../application/ai/chat-call.js';
import type { CompleteChat } from '../../../application/ai/complete-chat.use-case.js';
import type { StreamChat, ChatStream } from '../../../application/ai/stream-chat.use-case.js';
import type { ChatMessage } from '../../../application/ports/ai-provider.port.js';
import type { RunAgentTool, AgentToolResult } from '../../../application/skills/run-agent-tool.use-case.js';
import { CUSTOM_MODEL } from '../../../domain/agents/agent.js';
import { runtimeChatBody, runtimeToolBody } from '../http/schemas/chat.schema.js';
import { sseFrame } from '../http/server-sent-events.js';

/**
 * The work behind the agent host's two calls, once the door (host-call-door.ts) has checked the
 * token's presence and read the body: the body's schema (the routes' zod schemas, a ZodError when
 * it fails), the token's grant, the AI layer or the tool. A failure is thrown for the transport's
 * one error mapping.
 */

/** The use cases the door's work calls: handed over where the door is built, never looked up per call. */
export interface HostCallDeps {
  authorizeRuntimeChat: Pick<AuthorizeRuntimeChat, 'execute'>;
  completeChat: Pick<CompleteChat, 'execute'>;
  streamChat: Pick<StreamChat, 'execute'>;
  runAgentTool: Pick<RunAgentTool, 'execute'>;
}

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
    return; // the last event: the answer ends here
  }
}

/** A call's answer: JSON, or the event stream's frames (a chat call with `Accept: text/event-stream` and no tools). */
export type ChatReply = { kind: 'json'; body: ReturnType<typeof resultBody> } | { kind: 'events'; frames: AsyncGenerator<string> };
export type ToolReply = { kind: 'json'; body: AgentToolResult };
/** The reply to a call of the given kind. */
export type HostCallReply<K extends 'chat' | 'tools' = 'chat' | 'tools'> = K extends 'chat' ? ChatReply : ToolReply;

/**
 * One chat call, as the agent's owner: the gateway token's grant (AuthorizeRuntimeChat), then the
 * AI layer (plan models, BYOK keys, reservation and settlement). `signal`: the caller went away
 * (the provider call is aborted, the reservation released or settled).
 */
export async function answerChat(deps: HostCallDeps, token: string, raw: unknown, stream: boolean, signal: AbortSignal): Promise<ChatReply> {
  const body = runtimeChatBody.parse(raw);
  const grant = await deps.authorizeRuntimeChat.execute(token, body.agentId);
  const input: ChatInput = {
    messages: body.messages.map(chatMessage),
    model: body.model === CUSTOM_MODEL ? undefined : body.model,
    temperature: body.temperature,
    maxTokens: body.max_tokens,
    tools: body.tools,
    toolChoice: body.tool_choice,
  };
  // tools are offered on non-streamed calls only (AiProvider.stream is text only)
  if (body.tools?.length || !stream) return { kind: 'json', body: resultBody(await deps.completeChat.execute(grant, input, signal)) };
  return { kind: 'events', frames: sseFrames(await deps.streamChat.execute(grant, input, signal)) };
}

/** One tool call (RunAgentTool): the tool's result for the model, a refusal included. */
export async function answerTool(deps: HostCallDeps, token: string, raw: unknown, signal: AbortSignal): Promise<ToolReply> {
  const body = runtimeToolBody.parse(raw);
  return { kind: 'json', body: await deps.runAgentTool.execute(token, body, signal) };
}
