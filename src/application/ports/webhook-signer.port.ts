import type { InjectionToken } from 'tsyringe';

/** The three headers a Standard Webhooks receiver verifies. */
export interface StandardWebhookHeaders {
  'webhook-id': string;
  /** Unix seconds of `at`. */
  'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
  'webhook-signature': string;
}

/**
 * Signs an outbound webhook per the Standard Webhooks scheme (standardwebhooks.com), for the
 * event webhooks and the webhook skill alike. Pure: the same arguments give the same headers.
 */
export interface WebhookSigner {
  /** `secret` is a `whsec_…` secret; `at` goes out as `webhook-timestamp`. */
  headers(secret: string, messageId: string, at: Date, body: string): StandardWebhookHeaders;
}

export const WEBHOOK_SIGNER: InjectionToken<WebhookSigner> = Symbol('WebhookSigner');
