import type { InjectionToken } from 'tsyringe';
import type { WebhookDelivery } from './webhook-delivery.port.js';

/** Signs an outbound event per the Standard Webhooks scheme; returns the `webhook-signature` value. */
export interface EventSigner {
  /** `secret` is the endpoint's `whsec_…` secret; `timestamp` goes out as `webhook-timestamp`. */
  sign(secret: string, messageId: string, timestamp: Date, body: string): string;
}
export const EVENT_SIGNER: InjectionToken<EventSigner> = Symbol('EventSigner');

/** The HTTP delivery of event webhooks (its own private-target policy and timeout). */
export const EVENT_WEBHOOK_DELIVERY: InjectionToken<WebhookDelivery> = Symbol('EventWebhookDelivery');

export interface EventWebhookSettings {
  /** Admins may register loopback and private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** Retries after the first try before a delivery is dead (the queue's retry limit). */
  retryLimit: number;
}
export const EVENT_WEBHOOK_SETTINGS: InjectionToken<EventWebhookSettings> = Symbol('EventWebhookSettings');
