import type { InjectionToken } from 'tsyringe';
import type { WebhookTargetPolicy } from './webhook-delivery.port.js';

export interface EventWebhookSettings {
  /** Where endpoints may point and how long a delivery waits (WEBHOOK_ALLOW_PRIVATE_TARGETS: admins may register private targets; WEBHOOK_TIMEOUT_MS). */
  targets: WebhookTargetPolicy;
  /** Retries after the first try before a delivery is dead (the queue's retry limit). */
  retryLimit: number;
}
export const EVENT_WEBHOOK_SETTINGS: InjectionToken<EventWebhookSettings> = Symbol('EventWebhookSettings');
