import type { InjectionToken } from 'tsyringe';
import { DomainError } from '../../domain/shared/domain-error.js';

/** One signed webhook request to a URL a user gave. */
export interface WebhookRequest {
  url: URL;
  headers: Readonly<Record<string, string>>;
  body: string;
  signal?: AbortSignal;
}

/**
 * Sends a webhook over HTTP(S). Throws WebhookTargetRefusedError for a target this service may not
 * reach (a loopback, private or link-local address, unless configured otherwise) and
 * UpstreamUnavailableError when the target cannot be reached or does not answer in time.
 */
export interface WebhookDelivery {
  deliver(request: WebhookRequest): Promise<{ status: number }>;
}

export const WEBHOOK_DELIVERY: InjectionToken<WebhookDelivery> = Symbol('WebhookDelivery');

/** The target resolves to an address the service does not send to. HTTP 400. */
export class WebhookTargetRefusedError extends DomainError {
  constructor(reason: string) {
    super('WEBHOOK_TARGET_REFUSED', `The webhook target is not allowed: ${reason}`);
  }
}
