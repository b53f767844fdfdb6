import type { DependencyContainer } from 'tsyringe';
import { HttpWebhookDelivery } from '../adapters/outbound/webhooks/http-webhook-delivery.js';
import { StandardWebhooksSigner } from '../adapters/outbound/webhooks/standard-webhooks-signer.js';
import { SKILL_WEBHOOK_TARGETS } from '../application/ports/skill-webhook-targets.port.js';
import { WEBHOOK_DELIVERY } from '../application/ports/webhook-delivery.port.js';
import { WEBHOOK_SIGNER } from '../application/ports/webhook-signer.port.js';
import type { Config } from './config.js';

/**
 * What the stateful skills need beyond the unit of work: the one webhook sender and signer (the
 * event webhooks, registerWebhooks, use them too, each sender with its own target policy) and the
 * webhook skill's policy. Runs before the skill handlers are resolved.
 */
export function registerSkillState(c: DependencyContainer, config: Config): void {
  c.register(WEBHOOK_DELIVERY, { useValue: new HttpWebhookDelivery() });
  c.register(WEBHOOK_SIGNER, { useValue: new StandardWebhooksSigner() });
  c.register(SKILL_WEBHOOK_TARGETS, { useValue: { allowPrivate: config.SKILL_WEBHOOK_ALLOW_PRIVATE, timeoutMs: config.SKILL_WEBHOOK_TIMEOUT_MS } });
}
