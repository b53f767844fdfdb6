import type { DependencyContainer } from 'tsyringe';
import { HttpWebhookDelivery } from '../adapters/outbound/webhooks/http-webhook-delivery.js';
import { StandardWebhooksSigner } from '../adapters/outbound/webhooks/standard-webhooks-signer.js';
import { ResendVerification } from '../application/accounts/resend-verification.use-case.js';
import { DeliverOutboxMail } from '../application/mail/deliver-outbox-mail.use-case.js';
import { PruneOldData } from '../application/maintenance/prune-old-data.use-case.js';
import { EVENT_SIGNER, EVENT_WEBHOOK_DELIVERY, EVENT_WEBHOOK_SETTINGS } from '../application/ports/event-webhooks.port.js';
import { DeliverWebhook } from '../application/webhooks/deliver-webhook.use-case.js';
import { ManageWebhookEndpoints } from '../application/webhooks/manage-webhook-endpoints.use-case.js';
import { RelayOutboxEvents } from '../application/webhooks/relay-outbox-events.use-case.js';
import type { Config } from './config.js';

/** Outbound event webhooks, account mail from the outbox, and the pruning jobs. Needs SECRET_BOX and MAILER first. */
export function registerWebhooks(c: DependencyContainer, config: Config): void {
  c.register(EVENT_SIGNER, { useValue: new StandardWebhooksSigner() });
  c.register(EVENT_WEBHOOK_DELIVERY, {
    useValue: new HttpWebhookDelivery({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS, timeoutMs: config.WEBHOOK_TIMEOUT_MS }),
  });
  c.register(EVENT_WEBHOOK_SETTINGS, { useValue: { allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS, retryLimit: config.WEBHOOK_RETRY_LIMIT } });
  for (const useCase of [ManageWebhookEndpoints, RelayOutboxEvents, DeliverWebhook, DeliverOutboxMail, ResendVerification, PruneOldData]) {
    c.registerSingleton(useCase as never);
  }
}
