import { z } from 'zod';
import { AGENT_NAME_MAX, configFits, PROVISION_TIERS, type AgentConfigObject } from '../../../../domain/agents/agent.js';

/** Bytes of its UTF-8 JSON text (CONTRACT.md section 7). */
const agentConfig = z
  .custom<AgentConfigObject>(configFits, 'must be a JSON object of at most 64 KB')
  // what the check refuses, said in the document (a custom check alone reads as "anything")
  .meta({ type: 'object', additionalProperties: true, description: 'A JSON object of at most 64 KB of UTF-8 JSON text' } as never);

export const provisionBody = z.object({
  name: z.string().trim().min(1).max(AGENT_NAME_MAX),
  // the allowed list depends on DEFAULT_MODEL: the use case checks it (400 UNKNOWN_MODEL)
  model: z.string().trim().min(1).max(200).optional(),
  config: agentConfig.optional(),
  tier: z.enum(PROVISION_TIERS).optional(),
});

/** Any text: an id that is not a uuid names no agent, so it answers 404 like another user's. */
export const agentParams = z.object({ id: z.string().min(1).max(200) });

export const agentConfigBody = agentConfig;

export const MESSAGES_PAGE_MAX = 200;
export const messagesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MESSAGES_PAGE_MAX).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

/** An agent's activity window: whole hours back from now, a week at most. */
export const ACTIVITY_HOURS_MAX = 168;
export const activityQuery = z.object({
  hours: z.coerce.number().int().min(1).max(ACTIVITY_HOURS_MAX).default(24),
});
