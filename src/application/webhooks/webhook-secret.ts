import type { IdGenerator } from '../ports/id-generator.port.js';

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = (ids: IdGenerator): string => `whsec_${ids.bytes(24).toString('base64')}`;

/** The authenticated context the secret is sealed under: a sealed secret copied to another endpoint is unreadable. */
export const webhookSecretContext = (endpointId: string): string => `webhook-endpoint:${endpointId}`;
