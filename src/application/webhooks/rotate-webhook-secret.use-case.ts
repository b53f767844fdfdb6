import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { DeliverySystemScope } from '../ports/scopes/delivery-scope.port.js';
import type { WebhookEndpoint } from '../ports/webhook-repositories.port.js';
import { requireWebhookAdmin } from './webhook-admin.js';
import { newWebhookSecret, webhookSecretContext } from './webhook-secret.js';

/** An admin replaces an endpoint's secret. The old one stops signing at once: deliveries from now on (retries included) use the new one. */
@injectable()
export class RotateWebhookSecret {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<DeliverySystemScope, 'webhookEndpoints'>,
    @inject(SECRET_BOX) private readonly box: SecretBox,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Actor, endpointId: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    requireWebhookAdmin(actor);
    const secret = newWebhookSecret(this.ids);
    const sealed = this.box.seal(secret, webhookSecretContext(endpointId));
    const endpoint = await this.uow.asSystem(async (s) => {
      if (!(await s.webhookEndpoints.replaceSecret(endpointId, sealed, this.clock.now()))) return null;
      return s.webhookEndpoints.find(endpointId);
    });
    if (!endpoint) throw new NotFoundError('Webhook endpoint');
    return { endpoint, secret };
  }
}
