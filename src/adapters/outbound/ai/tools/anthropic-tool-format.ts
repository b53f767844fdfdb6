import type { ChatMessage, ToolCall, ToolChoice, ToolDefinition } from '../../../../application/ports/ai-provider.port.js';
import { at, isRecord, str } from '../json-fields.js';
import { generatedId } from '../usage.js';

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | Block[];
}

/** JSON text to the object Anthropic and Google want; a non-object is wrapped so nothing is lost. */
export function argumentsObject(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    return isRecord(v) ? v : { value: v };
  } catch {
    return { value: json };
  }
}

/** Anthropic's `tool_choice`: `required` is its `any`, a named tool its `tool`. */
export const anthropicToolChoice = (choice: ToolChoice): Block =>
  typeof choice !== 'string' ? { type: 'tool', name: choice.name } : choice === 'required' ? { type: 'any' } : { type: choice };

/**
 * The non-system messages in the Messages API format: an assistant's tool calls become
 * `tool_use` blocks after its text; tool results become `tool_result` blocks of a user turn, and
 * consecutive results share ONE user message (Anthropic requires every result of a turn together,
 * right after it).
 */
export function anthropicMessages(messages: readonly ChatMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      const block: Block = { type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content };
      const last = out[out.length - 1];
      if (last && last.role === 'user' && Array.isArray(last.content) && last.content.every((b) => b.type === 'tool_result')) last.content.push(block);
      else out.push({ role: 'user', content: [block] });
      continue;
    }
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      const blocks: Block[] = m.content === '' ? [] : [{ type: 'text', text: m.content }];
      for (const c of m.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: argumentsObject(c.arguments) });
      out.push({ role: 'assistant', content: blocks });
      continue;
    }
    out.push({ role: m.role, content: m.content });
  }
  return out;
}

export const anthropicTools = (tools: readonly ToolDefinition[]): unknown[] =>
  tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));

/** The response's `tool_use` blocks as ToolCalls; undefined when there are none. */
export function anthropicToolCalls(blocks: readonly unknown[]): ToolCall[] | undefined {
  const calls = blocks
    .filter((b) => at(b, 'type') === 'tool_use')
    .map((b) => ({ id: str(at(b, 'id')) ?? generatedId(), name: str(at(b, 'name')) ?? '', arguments: JSON.stringify(at(b, 'input') ?? {}) }));
  return calls.length > 0 ? calls : undefined;
}

