import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../ports/clock.port.js';
import { ID_GENERATOR, type IdGenerator } from '../../../ports/id-generator.port.js';
import { SKILL_WEBHOOK_TARGETS } from '../../../ports/skill-webhook-targets.port.js';
import { WEBHOOK_DELIVERY, type WebhookDelivery, type WebhookTargetPolicy } from '../../../ports/webhook-delivery.port.js';
import { WEBHOOK_SIGNER, type WebhookSigner } from '../../../ports/webhook-signer.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { sendAction } from './send.action.js';

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
    @inject(ID_GENERATOR) ids: IdGenerator,
  ) {
    this.actions = [sendAction({ delivery, signer, targets, clock, ids })];
  }
}
