import type { WebhookEventType } from '../../domain/webhooks/webhook-target.js';
import type { SealedSecret } from './secret-box.port.js';

export interface WebhookEndpoint {
  id: string;
  url: string;
  eventTypes: WebhookEventType[];
  description: string | null;
  createdAt: Date;
  secretRotatedAt: Date | null;
}

export type WebhookDeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'dead';

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
}

/** Admin-managed endpoints (system unit of work only). */
export interface WebhookEndpointRepository {
  /** The id is chosen by the caller so the sealed secret can be bound to it. */
  insert(e: { id: string; url: string; eventTypes: WebhookEventType[]; description: string | null; secret: SealedSecret; createdBy: string }): Promise<WebhookEndpoint>;
  list(): Promise<WebhookEndpoint[]>;
  find(id: string): Promise<WebhookEndpoint | null>;
  /** Replaces the sealed secret; false when the endpoint does not exist. */
  replaceSecret(id: string, secret: SealedSecret, at: Date): Promise<boolean>;
  /** Deletes it and (cascade) its deliveries; false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /** Endpoints subscribed to `type`. */
  subscribedTo(type: string): Promise<{ id: string }[]>;
}

/** What a delivery job needs: the target, its sealed secret, the event. */
export interface DeliveryWork {
  delivery: WebhookDelivery;
  url: string;
  secret: SealedSecret;
  event: { id: string; type: string; payload: Record<string, unknown>; createdAt: Date } | null;
}

export interface WebhookDeliveryRepository {
  /**
   * Creates the delivery of `eventId` to `endpointId` unless it exists. Returns its id only to
   * the caller that created it: concurrent relays of the same pair get null, so one job is queued.
   */
  createOnce(endpointId: string, eventId: string, eventType: string): Promise<string | null>;
  /** The delivery with its endpoint and event; null when the delivery or its endpoint is gone. */
  load(deliveryId: string): Promise<DeliveryWork | null>;
  recordAttempt(deliveryId: string, a: { status: WebhookDeliveryStatus; statusCode: number | null; error: string | null; at: Date }): Promise<void>;
  /** Most recent first. */
  recent(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
}
