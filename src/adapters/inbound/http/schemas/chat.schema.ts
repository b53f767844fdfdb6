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

/** The runtime's request (agent-host-protocol.ts `RuntimeChatRequest`). Unknown fields are ignored. */
export const runtimeChatBody = z.object({
  agentId,
  model: z.string().min(1).max(200),
  // an earlier answer may have been empty: history content may be too
  messages: z
    .array(z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string() }))
    .min(1)
    .max(1000),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).optional(),
});
