import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { DeliverySystemScope } from '../ports/scopes/delivery-scope.port.js';
import type { WebhookDelivery } from '../ports/webhook-repositories.port.js';
import { requireWebhookAdmin } from './webhook-admin.js';

/** An admin reads an endpoint's most recent deliveries; 404 when there is no such endpoint. */
@injectable()
export class ListWebhookDeliveries {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: SystemWork<DeliverySystemScope, 'webhookEndpoints' | 'webhookDeliveries'>) {}

  async execute(actor: Actor, input: { endpointId: string; limit: number }): Promise<WebhookDelivery[]> {
    requireWebhookAdmin(actor);
    const found = await this.uow.asSystem(async (s) => ((await s.webhookEndpoints.find(input.endpointId)) ? s.webhookDeliveries.recent(input.endpointId, input.limit) : null));
    if (!found) throw new NotFoundError('Webhook endpoint');
    return found;
  }
}
