import type { ChatInput } from '../../../application/ai/chat-call.js';
import type { ChatMessage, ToolChoice } from '../../../application/ports/ai-provider.port.js';
import { HttpEdgeError } from './http-error.js';
import { AGENT_MESSAGE_MAX_CHARS } from './schemas/chat.schema.js';
import type { OpenAiMessage, V1ChatBody } from './schemas/v1.schema.js';

/** An agent named as a model: `agent/<agentId>`. */
const AGENT_MODEL = /^agent\/(.+)$/;

/** The agent a model names, or null for a catalog model. */
export const agentIdOf = (model: string): string | null => AGENT_MODEL.exec(model)?.[1] ?? null;

/** A refusal naming the parameter, as a zod issue would (OpenAI's `param`). */
const invalid = (param: string, message: string) => new HttpEdgeError('VALIDATION_ERROR', `Invalid request: ${param} ${message}`, { details: [{ path: param, message }] });

const textOf = (content: OpenAiMessage['content'] | null | undefined): string =>
  content == null ? '' : typeof content === 'string' ? content : content.map((p) => p.text).join('');

/**
 * OpenAI's messages as the core's: `developer` is a system message; a tool result carries the name
 * of the call it answers (Google matches results by name), which must be one an earlier assistant
 * message made, as OpenAI requires.
 */
function chatMessages(messages: readonly OpenAiMessage[]): ChatMessage[] {
  const calledNames = new Map<string, string>();
  return messages.map((m, i): ChatMessage => {
    if (m.role === 'tool') {
      const toolName = calledNames.get(m.tool_call_id);
      if (toolName === undefined) throw invalid(`messages.${i}.tool_call_id`, 'must answer a tool call of an earlier assistant message');
      return { role: 'tool', content: textOf(m.content), toolCallId: m.tool_call_id, toolName };
    }
    if (m.role === 'assistant') {
      const toolCalls = m.tool_calls?.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      for (const c of toolCalls ?? []) calledNames.set(c.id, c.name);
      return { role: 'assistant', content: textOf(m.content), ...(toolCalls ? { toolCalls } : {}) };
    }
    return { role: m.role === 'developer' ? 'system' : m.role, content: textOf(m.content) };
  });
}

function toolChoiceOf(body: V1ChatBody): ToolChoice | undefined {
  const choice = body.tool_choice ?? undefined;
  if (choice === undefined) return undefined;
  if (!body.tools?.length) throw invalid('tool_choice', 'is only allowed when tools are given');
  if (typeof choice === 'string') return choice;
  const { name } = choice.function;
  if (!body.tools.some((t) => t.function.name === name)) throw invalid('tool_choice.function.name', `names no tool given (${name})`);
  return { name };
}

/** A catalog model's request as the chat use cases take it (the same input `/api/ai/chat` gives them). */
export function chatInputOf(body: V1ChatBody): ChatInput {
  const stop = body.stop == null ? undefined : typeof body.stop === 'string' ? [body.stop] : body.stop;
  return {
    messages: chatMessages(body.messages),
    model: body.model,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    tools: body.tools?.map((t) => ({ name: t.function.name, description: t.function.description ?? '', parameters: t.function.parameters ?? { type: 'object', properties: {} } })),
    toolChoice: toolChoiceOf(body),
    stop,
    responseFormat: body.response_format ? (body.response_format.type === 'json_object' ? 'json' : 'text') : undefined,
  };
}

/**
 * The question an agent model is asked: the last user message, sent through the agent's mailbox as
 * POST /api/chat sends one (the agent keeps its own history). An agent calls its own tools: none
 * may be offered.
 */
export function agentQuestionOf(body: V1ChatBody, agentId: string): { agentId: string; content: string } {
  if (body.tools?.length) throw invalid('tools', 'cannot be offered to an agent: it calls its own');
  const i = body.messages.findLastIndex((m) => m.role === 'user');
  if (i < 0) throw invalid('messages', 'must hold a user message for the agent');
  const content = textOf(body.messages[i]!.content);
  if (content.length === 0 || content.length > AGENT_MESSAGE_MAX_CHARS) throw invalid(`messages.${i}.content`, `must be 1 to ${AGENT_MESSAGE_MAX_CHARS} characters for an agent`);
  return { agentId, content };
}
