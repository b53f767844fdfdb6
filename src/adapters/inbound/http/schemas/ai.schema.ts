import { z } from 'zod';
import { AI_PROVIDER_NAMES } from '../../../../domain/ai/ai-model.js';

/** `/api/ai/models/:provider`: one of the five provider names; anything else is a 400 at the edge. */
export const providerParams = z.object({ provider: z.enum(AI_PROVIDER_NAMES) });

const taskType = z.string().trim().min(1).max(64);

/** The body is optional altogether (spec: taskType optional, default `general`). */
export const selectModelBody = z.object({ taskType: taskType.optional() }).nullish();

const tokenCount = z.number().int().min(0).max(1_000_000_000);
export const estimateCostBody = z.object({
  model: z.string().min(1).max(200),
  inputTokens: tokenCount,
  outputTokens: tokenCount,
});

/**
 * `/api/ai/chat`. Parsed in the handler rather than by the route schema, because the plan and
 * subscription headers are checked first (spec order). Unknown fields are ignored.
 */
export const chatBody = z.object({
  messages: z
    .array(z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string().min(1) }))
    .min(1, 'messages must not be empty')
    .max(1000),
  model: z.string().min(1).max(200).optional(),
  taskType: taskType.optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).optional(),
});
export type ChatBody = z.infer<typeof chatBody>;

/** The plan and subscription the caller says it pays with (spec "AI layer"): checked against its own. */
export const chatHeaders = z.object({
  'x-user-plan': z.string().optional().describe("the caller's plan, checked against its subscription"),
  'x-payment-subscription-id': z.string().optional().describe('the subscription to charge, one of the caller\'s own'),
});
