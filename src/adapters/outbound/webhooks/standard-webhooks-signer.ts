import { Webhook } from 'standardwebhooks';
import type { StandardWebhookHeaders, WebhookSigner } from '../../../application/ports/webhook-signer.port.js';

/** The `standardwebhooks` reference implementation: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export class StandardWebhooksSigner implements WebhookSigner {
  headers(secret: string, messageId: string, at: Date, body: string): StandardWebhookHeaders {
    return {
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(messageId, at, body),
    };
  }
}
