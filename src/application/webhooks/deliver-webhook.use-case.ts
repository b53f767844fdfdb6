import { inject, injectable } from 'tsyringe';
import { deliveryStatusAfter } from '../../domain/webhooks/webhook-target.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { EVENT_WEBHOOK_SETTINGS, type EventWebhookSettings } from '../ports/event-webhooks.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { DeliverySystemScope } from '../ports/scopes/delivery-scope.port.js';
import { WEBHOOK_DELIVERY, type WebhookDelivery } from '../ports/webhook-delivery.port.js';
import { WEBHOOK_SIGNER, type WebhookSigner } from '../ports/webhook-signer.port.js';
import { WebhookAttemptFailed } from './webhook-attempt-failed.js';
import { webhookSecretContext } from './webhook-secret.js';

/**
 * One attempt of one delivery, recorded whatever its outcome. The body and `webhook-id` are the
 * same on every attempt (the id is the event's, `evt_<outbox id>`), so a receiver can drop
 * duplicates; `webhook-timestamp` is the attempt's time, as the scheme's replay window expects.
 */
@injectable()
export class DeliverWebhook {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<DeliverySystemScope, 'webhookDeliveries'>,
    @inject(SECRET_BOX) private readonly box: SecretBox,
    @inject(WEBHOOK_SIGNER) private readonly signer: WebhookSigner,
    @inject(WEBHOOK_DELIVERY) private readonly http: WebhookDelivery,
    @inject(EVENT_WEBHOOK_SETTINGS) private readonly settings: EventWebhookSettings,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(deliveryId: string): Promise<void> {
    const work = await this.uow.asSystem((s) => s.webhookDeliveries.load(deliveryId));
    // the endpoint was deleted, the event pruned, or an earlier attempt already settled it
    if (!work || !work.event || work.delivery.status === 'delivered' || work.delivery.status === 'dead') return;
    const { event } = work;
    const secret = this.box.open(work.secret, webhookSecretContext(work.delivery.endpointId));
    const messageId = `evt_${event.id}`;
    const body = JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload });
    const headers = { 'content-type': 'application/json', ...this.signer.headers(secret, messageId, this.clock.now(), body) };

    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      statusCode = (await this.http.deliver({ url: new URL(work.url), headers, body }, this.settings.targets)).status;
      if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const status = deliveryStatusAfter(work.delivery.attempts + 1, error === null, this.settings.retryLimit);
    await this.uow.asSystem((s) => s.webhookDeliveries.recordAttempt(deliveryId, { status, statusCode, error, at: this.clock.now() }));
    if (error !== null) throw new WebhookAttemptFailed(deliveryId, error);
  }
}
