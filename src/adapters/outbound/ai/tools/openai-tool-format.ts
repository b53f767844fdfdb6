import type { ChatMessage, ToolCall, ToolChoice, ToolDefinition } from '../../../../application/ports/ai-provider.port.js';
import { arr, at, str } from '../json-fields.js';
import { generatedId } from '../usage.js';

/** A message in the Chat Completions format: tool calls as `tool_calls`, results as role `tool`. */
export function openAiMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
  if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
    return {
      role: 'assistant',
      // OpenAI wants null, not '', when the assistant only called tools
      content: m.content === '' ? null : m.content,
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return { role: m.role, content: m.content };
}

export const openAiTools = (tools: readonly ToolDefinition[]): unknown[] =>
  tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));

export const openAiToolChoice = (choice: ToolChoice): unknown => (typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } });

/** `choices[0].message.tool_calls` as ToolCalls; undefined when there are none. */
export function openAiToolCalls(message: unknown): ToolCall[] | undefined {
  const raw = arr(at(message, 'tool_calls'));
  if (!raw || raw.length === 0) return undefined;
  const calls = raw
    .filter((c) => (str(at(c, 'type')) ?? 'function') === 'function')
    .map((c) => ({
      id: str(at(c, 'id')) ?? generatedId(),
      name: str(at(c, 'function', 'name')) ?? '',
      arguments: str(at(c, 'function', 'arguments')) ?? '{}',
    }));
  return calls.length > 0 ? calls : undefined;
}
