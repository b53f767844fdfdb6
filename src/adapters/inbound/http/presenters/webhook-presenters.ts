import type { WebhookDelivery, WebhookEndpoint } from '../../../../application/ports/webhook-repositories.port.js';

/** An endpoint as admins see it: never its secret (shown once, by create and rotate). */
export const webhookEndpointBody = (e: WebhookEndpoint) => ({
  id: e.id,
  url: e.url,
  eventTypes: e.eventTypes,
  description: e.description,
  createdAt: e.createdAt.toISOString(),
  secretRotatedAt: e.secretRotatedAt?.toISOString() ?? null,
});

export const webhookDeliveryBody = (d: WebhookDelivery) => ({
  id: d.id,
  eventId: `evt_${d.eventId}`,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
});
