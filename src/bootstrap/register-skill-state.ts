import type { DependencyContainer } from 'tsyringe';
import { HttpWebhookDelivery } from '../adapters/outbound/webhooks/http-webhook-delivery.js';
import { WEBHOOK_DELIVERY } from '../application/ports/webhook-delivery.port.js';
import type { Config } from './config.js';

/** What the stateful skills need beyond the unit of work: the webhook skill's HTTP delivery. Runs before the skill handlers are resolved. */
export function registerSkillState(c: DependencyContainer, config: Config): void {
  c.register(WEBHOOK_DELIVERY, {
    useValue: new HttpWebhookDelivery({ allowPrivate: config.SKILL_WEBHOOK_ALLOW_PRIVATE, timeoutMs: config.SKILL_WEBHOOK_TIMEOUT_MS }),
  });
}
