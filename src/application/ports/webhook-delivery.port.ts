import type { InjectionToken } from 'tsyringe';
import { DomainError } from '../../domain/shared/domain-error.js';

/** One signed webhook request to a URL a user gave. */
export interface WebhookRequest {
  url: URL;
  headers: Readonly<Record<string, string>>;
  body: string;
  signal?: AbortSignal;
}

/** Which targets a sender may reach, and how long it waits: the event webhooks and the webhook skill each have their own. */
export interface WebhookTargetPolicy {
  /** Loopback, private, link-local and reserved addresses are reachable (a development or admin setting). */
  readonly allowPrivate: boolean;
  /** The whole exchange, connection to the answer's end. */
  readonly timeoutMs: number;
}

/**
 * Sends a webhook over HTTP(S). Throws WebhookTargetRefusedError for a target `policy` refuses
 * (a loopback, private or link-local address unless it allows them) and UpstreamUnavailableError
 * when the target cannot be reached or does not answer within the policy's time.
 */
export interface WebhookDelivery {
  deliver(request: WebhookRequest, policy: WebhookTargetPolicy): Promise<{ status: number }>;
}

export const WEBHOOK_DELIVERY: InjectionToken<WebhookDelivery> = Symbol('WebhookDelivery');


/** The target resolves to an address the service does not send to. HTTP 400. */
export class WebhookTargetRefusedError extends DomainError {
  constructor(reason: string) {
    super('WEBHOOK_TARGET_REFUSED', `The webhook target is not allowed: ${reason}`);
  }
}
