import type { MailOutbox } from '../outbox.port.js';
import type { OutboxReader } from '../outbox-reader.port.js';
import type { WebhookDeliveryRepository, WebhookEndpointRepository } from '../webhook-repositories.port.js';
import type { SharedSystemScope } from './shared-scope.port.js';

/** What the delivery use cases (mail, webhooks) may touch as the system: the outbox's relays and what they send. */
export interface DeliverySystemScope extends SharedSystemScope {
  mailOutbox: MailOutbox;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  outboxReader: OutboxReader;
}
