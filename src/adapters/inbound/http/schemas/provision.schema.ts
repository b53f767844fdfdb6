import { z } from 'zod';
import { REMOVED_PROVISION_FIELDS } from '../../../../domain/agents/channel-provisioning.js';
import { AI_PROVIDER_NAMES } from '../../../../domain/ai/ai-model.js';
import { CHECKOUT_PLANS } from '../../../../domain/billing/plan-catalogs.js';

const secret = z.string().min(1).max(4096);

/**
 * POST /api/provision (spec "POST /api/provision (agent with channel tokens)"). Unknown fields are
 * ignored, except the ones the spec removed, which are refused by name; at least one channel
 * token is required. `plan` may be `free` here: the route answers it with 402, not 400.
 */
export const channelProvisionBody = z
  .object({
    channelTokenA: secret.optional(),
    channelUserIdA: z.string().min(1).max(200).optional(),
    channelTokenB: secret.optional(),
    channelTokenC: secret.optional(),
    aiProvider: z.enum(AI_PROVIDER_NAMES).default('openrouter'),
    apiKey: secret.optional(),
    plan: z.enum([...CHECKOUT_PLANS, 'free']).optional(),
    // any address the service could have registered (not only ones with a dotted domain)
    email: z.string().trim().min(3).max(320).regex(/^[^@\s]+@[^@\s]+$/, 'must be an e-mail address').optional(),
    paymentSubscriptionId: z.string().min(1).max(255).optional(),
  })
  .passthrough()
  .superRefine((body, ctx) => {
    for (const field of REMOVED_PROVISION_FIELDS) {
      if (field in body) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: `${field} is no longer accepted` });
    }
    if (body.channelTokenA === undefined && body.channelTokenB === undefined && body.channelTokenC === undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['channelTokenA'], message: 'at least one channel token is required (channelTokenA, channelTokenB or channelTokenC)' });
    }
  });
