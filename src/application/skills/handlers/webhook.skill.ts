import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { InvalidInputError } from '../../errors.js';
import { CLOCK, type Clock } from '../../ports/clock.port.js';
import { ID_GENERATOR, type IdGenerator } from '../../ports/id-generator.port.js';
import { WEBHOOK_DELIVERY, type WebhookDelivery } from '../../ports/webhook-delivery.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { standardWebhookHeaders, WEBHOOK_SECRET } from './standard-webhook-signature.js';
import { action, text } from './skill-inputs.js';

const MAX_BODY_BYTES = 64 * 1024;

/**
 * webhook: delivers a JSON event `{type, timestamp, data}` to a URL the user gives, signed per
 * Standard Webhooks with the `whsec_` secret the user gives. A target that answers non-2xx is
 * reported (`delivered: false`, its status); one that cannot be reached or times out is a 502.
 */
@injectable()
export class WebhookSkill implements SkillHandler {
  readonly slug = 'webhook';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions: readonly SkillAction[];

  constructor(@inject(WEBHOOK_DELIVERY) delivery: WebhookDelivery, @inject(CLOCK) clock: Clock, @inject(ID_GENERATOR) ids: IdGenerator) {
    this.actions = [
      action({
        name: 'send',
        description: 'POST a JSON event (type, data) to an https or http URL, signed with the given Standard Webhooks secret (whsec_...).',
        input: z.strictObject({
          action: z.literal('send'),
          url: z.url({ protocol: /^https?$/ }).max(2048),
          secret: z.string().regex(WEBHOOK_SECRET, 'must be a Standard Webhooks secret: whsec_ followed by base64'),
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
          const timestamp = Math.floor(now.getTime() / 1000);
          const headers = { 'content-type': 'application/json', ...standardWebhookHeaders(input.secret, id, timestamp, body) };
          const { status } = await delivery.deliver({ url: new URL(input.url), headers, body, ...(ctx.signal ? { signal: ctx.signal } : {}) });
          return { delivered: status >= 200 && status < 300, status, webhookId: id, timestamp };
        },
      }),
    ];
  }
}
