import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { DeliverySystemScope } from '../ports/scopes/delivery-scope.port.js';
import type { WebhookEndpoint } from '../ports/webhook-repositories.port.js';
import { requireWebhookAdmin } from './webhook-admin.js';

/** An admin lists the endpoints (their secrets are never shown again). */
@injectable()
export class ListWebhookEndpoints {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: SystemWork<DeliverySystemScope, 'webhookEndpoints'>) {}

  async execute(actor: Actor): Promise<WebhookEndpoint[]> {
    requireWebhookAdmin(actor);
    return this.uow.asSystem((s) => s.webhookEndpoints.list());
  }
}
