import { inject, injectable } from 'tsyringe';
import { webhookUrlProblem, type WebhookEventType } from '../../domain/webhooks/webhook-target.js';
import type { Actor } from '../auth/actor.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { EVENT_WEBHOOK_SETTINGS, type EventWebhookSettings } from '../ports/event-webhooks.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { DeliverySystemScope } from '../ports/scopes/delivery-scope.port.js';
import { WebhookTargetRefusedError } from '../ports/webhook-delivery.port.js';
import type { WebhookEndpoint } from '../ports/webhook-repositories.port.js';
import { requireWebhookAdmin } from './webhook-admin.js';
import { newWebhookSecret, webhookSecretContext } from './webhook-secret.js';

const PROBLEMS = {
  'not-a-url': 'not a URL',
  scheme: 'only http and https URLs are accepted',
  credentials: 'a URL may not carry credentials',
  'private-target': 'loopback and private addresses are refused (WEBHOOK_ALLOW_PRIVATE_TARGETS)',
} as const;

/** An admin registers an endpoint. The secret is generated here, sealed at rest, and shown only in this answer (and rotate's). */
@injectable()
export class CreateWebhookEndpoint {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<DeliverySystemScope, 'webhookEndpoints'>,
    @inject(SECRET_BOX) private readonly box: SecretBox,
    @inject(EVENT_WEBHOOK_SETTINGS) private readonly settings: EventWebhookSettings,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Actor, input: { url: string; eventTypes: WebhookEventType[]; description?: string | undefined }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    requireWebhookAdmin(actor);
    const problem = webhookUrlProblem(input.url, this.settings.targets.allowPrivate);
    if (problem) throw new WebhookTargetRefusedError(PROBLEMS[problem]);
    const id = this.ids.uuid();
    const secret = newWebhookSecret(this.ids);
    const sealed = this.box.seal(secret, webhookSecretContext(id));
    const eventTypes = [...new Set(input.eventTypes)];
    const endpoint = await this.uow.asSystem((s) =>
      s.webhookEndpoints.insert({ id, url: input.url, eventTypes, description: input.description ?? null, secret: sealed, createdBy: actor.userId }),
    );
    return { endpoint, secret };
  }
}
