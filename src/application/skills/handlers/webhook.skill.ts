import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { InvalidInputError } from '../../errors.js';
import { CLOCK, type Clock } from '../../ports/clock.port.js';
import { STANDARD_WEBHOOK_SECRET } from '../../../domain/webhooks/webhook-secret.js';
import { SKILL_WEBHOOK_TARGETS } from '../../ports/skill-webhook-targets.port.js';
import { WEBHOOK_DELIVERY, type WebhookDelivery, type WebhookTargetPolicy } from '../../ports/webhook-delivery.port.js';
import { WEBHOOK_SIGNER, type WebhookSigner } from '../../ports/webhook-signer.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
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

  constructor(
    @inject(WEBHOOK_DELIVERY) delivery: WebhookDelivery,
    @inject(WEBHOOK_SIGNER) signer: WebhookSigner,
    @inject(SKILL_WEBHOOK_TARGETS) targets: WebhookTargetPolicy,
    @inject(CLOCK) clock: Clock,
  ) {
    this.actions = [
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
          const id = `msg_${randomUUID()}`;
          const now = clock.now();
          const body = JSON.stringify({ type: input.eventType ?? 'agent.event', timestamp: now.toISOString(), data: input.data });
          if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new InvalidInputError('VALIDATION_ERROR', `The event is larger than ${MAX_BODY_BYTES} bytes`);
          const signed = signer.headers(input.secret, id, now, body);
          const headers = { 'content-type': 'application/json', ...signed };
          const { status } = await delivery.deliver({ url: new URL(input.url), headers, body, ...(ctx.signal ? { signal: ctx.signal } : {}) }, targets);
          const timestamp = Number(signed['webhook-timestamp']);
          return { delivered: status >= 200 && status < 300, status, webhookId: id, timestamp };
        },
      }),
    ];
  }
}
