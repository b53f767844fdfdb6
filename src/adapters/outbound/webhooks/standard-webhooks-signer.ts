import { Webhook } from 'standardwebhooks';
import type { EventSigner } from '../../../application/ports/event-webhooks.port.js';

/** The `standardwebhooks` reference implementation: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export class StandardWebhooksSigner implements EventSigner {
  sign(secret: string, messageId: string, timestamp: Date, body: string): string {
    return new Webhook(secret).sign(messageId, timestamp, body);
  }
}
