import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { DeliverySystemScope } from '../ports/scopes/delivery-scope.port.js';
import { requireWebhookAdmin } from './webhook-admin.js';

/** An admin deletes an endpoint; 404 when there is none. */
@injectable()
export class DeleteWebhookEndpoint {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: SystemWork<DeliverySystemScope, 'webhookEndpoints'>) {}

  async execute(actor: Actor, endpointId: string): Promise<void> {
    requireWebhookAdmin(actor);
    if (!(await this.uow.asSystem((s) => s.webhookEndpoints.delete(endpointId)))) throw new NotFoundError('Webhook endpoint');
  }
}
