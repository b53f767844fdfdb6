import type { DependencyContainer } from 'tsyringe';
import { ResendVerification } from '../application/accounts/resend-verification.use-case.js';
import { DeliverOutboxMail } from '../application/mail/deliver-outbox-mail.use-case.js';
import { PruneOldData } from '../application/maintenance/prune-old-data.use-case.js';
import { EVENT_WEBHOOK_SETTINGS } from '../application/ports/event-webhooks.port.js';
import { DeliverWebhook } from '../application/webhooks/deliver-webhook.use-case.js';
import { CreateWebhookEndpoint } from '../application/webhooks/create-webhook-endpoint.use-case.js';
import { DeleteWebhookEndpoint } from '../application/webhooks/delete-webhook-endpoint.use-case.js';
import { ListWebhookDeliveries } from '../application/webhooks/list-webhook-deliveries.use-case.js';
import { ListWebhookEndpoints } from '../application/webhooks/list-webhook-endpoints.use-case.js';
import { RotateWebhookSecret } from '../application/webhooks/rotate-webhook-secret.use-case.js';
import { RelayOutboxEvents } from '../application/webhooks/relay-outbox-events.use-case.js';
import type { Config } from './config.js';

/** Outbound event webhooks, account mail from the outbox, and the pruning jobs. Needs SECRET_BOX, MAILER, WEBHOOK_DELIVERY and WEBHOOK_SIGNER first. */
export function registerWebhooks(c: DependencyContainer, config: Config): void {
  // the sender and signer are the ones the webhook skill uses (registerSkillState); only the policy differs
  c.register(EVENT_WEBHOOK_SETTINGS, {
    useValue: { targets: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS, timeoutMs: config.WEBHOOK_TIMEOUT_MS }, retryLimit: config.WEBHOOK_RETRY_LIMIT },
  });
  for (const useCase of [CreateWebhookEndpoint, ListWebhookEndpoints, RotateWebhookSecret, DeleteWebhookEndpoint, ListWebhookDeliveries, RelayOutboxEvents, DeliverWebhook, DeliverOutboxMail, ResendVerification, PruneOldData]) {
    c.registerSingleton(useCase as never);
  }
}
