import type { ChatMessage, RuntimeChatRequest, WireDelivery } from './agent-host-protocol.js';

/** Used when the agent's config has no `systemPrompt`. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a helpful AI agent. Answer the user clearly and concisely, and say so when you do not know.';

/** The memory's system message never exceeds this many characters (the rest is summarised as omitted). */
export const MEMORY_PROMPT_MAX_CHARS = 8_000;
/** One memory value longer than this is cut with an ellipsis. */
export const MEMORY_VALUE_MAX_CHARS = 1_000;
const MEMORY_HEADER = 'Your memory (key: JSON value), saved from earlier conversations:';

/**
 * The service request for one delivery: the system prompt, the memory as a compact second system
 * message (absent when the memory is empty), the history oldest first, then the new user message;
 * `temperature` and `max_tokens` from the config when they are valid numbers.
 */
export function buildChatRequest(d: WireDelivery, renderedMemory: string | null = renderMemory(d.memory)): RuntimeChatRequest {
  const systemPrompt = typeof d.config.systemPrompt === 'string' && d.config.systemPrompt.trim() !== '' ? d.config.systemPrompt : DEFAULT_SYSTEM_PROMPT;
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  if (renderedMemory !== null) messages.push({ role: 'system', content: renderedMemory });
  for (const m of d.history) {
    if ((m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string') messages.push({ role: m.role, content: m.content });
  }
  messages.push({ role: 'user', content: d.content });

  const request: RuntimeChatRequest = { agentId: d.agentId, model: d.model, messages };
  const { temperature, maxTokens } = d.config;
  if (typeof temperature === 'number' && Number.isFinite(temperature) && temperature >= 0) request.temperature = temperature;
  if (typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0) request.max_tokens = maxTokens;
  return request;
}

/**
 * The memory as one line per key (`key: <JSON>`), keys sorted so the same memory always renders
 * the same text; values cut at MEMORY_VALUE_MAX_CHARS, the whole at MEMORY_PROMPT_MAX_CHARS with
 * a last line counting the entries left out. Null for an empty memory.
 */
export function renderMemory(memory: Record<string, unknown>): string | null {
  const keys = Object.keys(memory).sort();
  if (keys.length === 0) return null;
  let text = MEMORY_HEADER;
  for (const [i, key] of keys.entries()) {
    const line = `\n${key}: ${cut(JSON.stringify(memory[key]) ?? 'null', MEMORY_VALUE_MAX_CHARS)}`;
    const left = keys.length - i;
    const omitted = `\n(${left} more ${left === 1 ? 'entry' : 'entries'} omitted)`;
    // keep room for the "omitted" line unless this is the last entry
    const room = MEMORY_PROMPT_MAX_CHARS - text.length - (i === keys.length - 1 ? 0 : omitted.length + 8);
    if (line.length > room) return text + omitted;
    text += line;
  }
  return text;
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
