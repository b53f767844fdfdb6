import { z } from 'zod';
import { InvalidInputError } from '../../../errors.js';
import type { Clock } from '../../../ports/clock.port.js';
import type { IdGenerator } from '../../../ports/id-generator.port.js';
import { STANDARD_WEBHOOK_SECRET } from '../../../../domain/webhooks/webhook-secret.js';
import type { WebhookDelivery, WebhookTargetPolicy } from '../../../ports/webhook-delivery.port.js';
import type { WebhookSigner } from '../../../ports/webhook-signer.port.js';
import { action, text } from '../skill-inputs.js';
import { MAX_BODY_BYTES } from './webhook.shared.js';

/** The `send` action of webhook. */
export const sendAction = ({ delivery, signer, targets, clock, ids }: { delivery: WebhookDelivery; signer: WebhookSigner; targets: WebhookTargetPolicy; clock: Clock; ids: IdGenerator }) =>
  action({
    name: 'send',
    description: 'POST a JSON event (type, data) to an https or http URL, signed with the given Standard Webhooks secret (whsec_...).',
    input: z.strictObject({
      action: z.literal('send'),
      url: z.url({ protocol: /^https?$/ }).max(2048),
      secret: z.string().regex(STANDARD_WEBHOOK_SECRET, 'must be a Standard Webhooks secret: whsec_ followed by base64'),
      eventType: text(100).optional(),
      data: z.record(z.string(), z.unknown()),
    }),
    capabilities: ['network'],
    run: async (ctx, input) => {
      ctx.requireCapability('network');
      const id = `msg_${ids.uuid()}`;
      const now = clock.now();
      const body = JSON.stringify({ type: input.eventType ?? 'agent.event', timestamp: now.toISOString(), data: input.data });
      if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new InvalidInputError('VALIDATION_ERROR', `The event is larger than ${MAX_BODY_BYTES} bytes`, { details: [{ path: 'body/data', message: `makes an event larger than ${MAX_BODY_BYTES} bytes` }] });
      const signed = signer.headers(input.secret, id, now, body);
      const headers = { 'content-type': 'application/json', ...signed };
      const { status } = await delivery.deliver({ url: new URL(input.url), headers, body, ...(ctx.signal ? { signal: ctx.signal } : {}) }, targets);
      const timestamp = Number(signed['webhook-timestamp']);
      return { delivered: status >= 200 && status < 300, status, webhookId: id, timestamp };
    },
  });
