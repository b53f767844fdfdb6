import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../../../domain/webhooks/webhook-target.js';

export const createWebhookBody = z
  .object({
    url: z.string().trim().min(1).max(2048).url('must be a URL'),
    eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length * 4),
    description: z.string().trim().max(500).optional(),
  })
  .strict();
export const webhookParams = z.object({ id: z.string().uuid('not a webhook endpoint id') });
export const webhookDeliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

export const resendVerificationBody = z.object({ email: z.string().trim().max(254).email('must be a valid e-mail address') });
