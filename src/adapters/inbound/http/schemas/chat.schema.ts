import { z } from 'zod';
import { messagesQuery } from './agents.schema.js';

/** CONTRACT.md section 7: 1 to 32,000 characters. */
export const AGENT_MESSAGE_MAX_CHARS = 32_000;

/** Any text: an id that is not a uuid names no agent, so it answers 404 like another user's. */
const agentId = z.string().min(1).max(200);

export const sendMessageBody = z.object({
  agentId,
  content: z.string().min(1).max(AGENT_MESSAGE_MAX_CHARS),
});

export const chatHistoryQuery = messagesQuery.extend({ agentId });

/** OpenAI's rule for a function name; tool names are `<slug>__<action>`. */
const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/);
const toolCall = z.object({ id: z.string().min(1).max(200), name: z.string().min(1).max(200), arguments: z.string().max(100_000) });

// an earlier answer may have been empty: history content may be too
const runtimeMessage = z.discriminatedUnion('role', [
  z.object({ role: z.enum(['user', 'system']), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), tool_calls: z.array(toolCall).max(64).optional() }),
  z.object({ role: z.literal('tool'), content: z.string(), tool_call_id: z.string().min(1).max(200), name: z.string().min(1).max(200) }),
]);

/** The runtime's request (agent-host-protocol.ts `RuntimeChatRequest`). Unknown fields are ignored. */
export const runtimeChatBody = z.object({
  agentId,
  model: z.string().min(1).max(200),
  messages: z.array(runtimeMessage).min(1).max(1000),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).optional(),
  tools: z
    .array(z.object({ name: toolName, description: z.string().max(4_000), parameters: z.record(z.string(), z.unknown()) }))
    .max(128)
    .optional(),
  tool_choice: z.enum(['auto', 'none']).optional(),
});

/** The runtime's tool call (agent-host-protocol.ts `RuntimeToolRequest`). */
export const runtimeToolBody = z.object({
  agentId,
  name: z.string().min(1).max(200),
  arguments: z.string().max(100_000),
});

/** The runtime's answer (agent-host-protocol.ts `RuntimeChatResult`); streamed, the `done` event carries it. */
export const runtimeChatResultResponse = z.object({
  content: z.string(),
  model: z.string(),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() }),
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
});

/** A tool's result for the model: `success: true` and the action's own fields, or a refusal `{error, code}` (still 200). */
export const runtimeToolResultResponse = z.union([z.looseObject({ success: z.literal(true) }), z.object({ error: z.string(), code: z.string() })]);
