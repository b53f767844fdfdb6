import type { ChatMessage, ToolCall, ToolChoice, ToolDefinition } from '../../../../application/ports/ai-provider.port.js';
import { arr, at, isRecord, str } from '../json-fields.js';
import { generatedId } from '../usage.js';
import { argumentsObject } from './anthropic-tool-format.js';

type Part = Record<string, unknown>;
interface GoogleContent {
  role: 'user' | 'model';
  parts: Part[];
}

/** Gemini's `toolConfig`: `required` is its `ANY` mode, a named tool `ANY` limited to that name. */
export const googleToolConfig = (choice: ToolChoice): Part => ({
  functionCallingConfig: typeof choice !== 'string' ? { mode: 'ANY', allowedFunctionNames: [choice.name] } : { mode: choice === 'required' ? 'ANY' : choice.toUpperCase() },
});

/**
 * The non-system messages as Gemini `contents`: an assistant's tool calls become `functionCall`
 * parts of its `model` turn; tool results become `functionResponse` parts (by name: Gemini has
 * no call ids), consecutive results in one `user` turn. A result that is not a JSON object is
 * wrapped as `{result: ...}` since `response` must be an object.
 */
export function googleContents(messages: readonly ChatMessage[]): GoogleContent[] {
  const out: GoogleContent[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      const part: Part = { functionResponse: { name: m.toolName ?? '', response: responseObject(m.content) } };
      const last = out[out.length - 1];
      if (last && last.role === 'user' && last.parts.every((p) => 'functionResponse' in p)) last.parts.push(part);
      else out.push({ role: 'user', parts: [part] });
      continue;
    }
    if (m.role === 'assistant') {
      const parts: Part[] = m.content === '' && m.toolCalls?.length ? [] : [{ text: m.content }];
      for (const c of m.toolCalls ?? []) parts.push({ functionCall: { name: c.name, args: argumentsObject(c.arguments) } });
      out.push({ role: 'model', parts });
      continue;
    }
    out.push({ role: 'user', parts: [{ text: m.content }] });
  }
  return out;
}

function responseObject(content: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(content);
    return isRecord(v) ? v : { result: v };
  } catch {
    return { result: content };
  }
}

/**
 * Gemini accepts an OpenAPI subset of JSON schema: `$schema`, `additionalProperties` and the
 * like are refused, so they are dropped (recursively) from what is offered.
 */
const UNSUPPORTED_SCHEMA_KEYS = new Set(['$schema', 'additionalProperties', '$id', '$ref', '$defs', 'definitions', 'default', 'examples']);
export function googleSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(googleSchema);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (UNSUPPORTED_SCHEMA_KEYS.has(k)) continue;
    // `properties` holds names, not keywords: only its values are schemas
    out[k] = k === 'properties' && isRecord(v) ? Object.fromEntries(Object.entries(v).map(([n, s]) => [n, googleSchema(s)])) : googleSchema(v);
  }
  return out;
}

export const googleTools = (tools: readonly ToolDefinition[]): unknown[] => [
  { functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parameters: googleSchema(t.parameters) })) },
];

/** The first candidate's `functionCall` parts as ToolCalls (ids generated); undefined when none. */
export function googleToolCalls(body: unknown): ToolCall[] | undefined {
  const parts = arr(at(body, 'candidates', 0, 'content', 'parts')) ?? [];
  const calls = parts
    .map((p) => at(p, 'functionCall'))
    .filter((c) => c !== undefined)
    .map((c) => ({ id: str(at(c, 'id')) ?? generatedId(), name: str(at(c, 'name')) ?? '', arguments: JSON.stringify(at(c, 'args') ?? {}) }));
  return calls.length > 0 ? calls : undefined;
}
