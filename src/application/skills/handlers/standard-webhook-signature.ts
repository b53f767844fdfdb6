import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature (standardwebhooks.com): HMAC-SHA256 over
 * `${id}.${timestamp}.${body}` keyed with the base64-decoded part of a `whsec_` secret, sent as
 * `webhook-signature: v1,<base64>` with `webhook-id` and `webhook-timestamp` (unix seconds).
 */
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{22,}={0,2}$/;

export function standardWebhookHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}
