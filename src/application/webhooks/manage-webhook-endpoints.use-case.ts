import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { AdminRequiredError } from '../auth/auth.errors.js';
import { NotFoundError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { EVENT_WEBHOOK_SETTINGS, type EventWebhookSettings } from '../ports/event-webhooks.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { WebhookTargetRefusedError } from '../ports/webhook-delivery.port.js';
import type { WebhookDelivery, WebhookEndpoint } from '../ports/webhook-repositories.port.js';
import { webhookUrlProblem, type WebhookEventType } from '../../domain/webhooks/webhook-target.js';
import { newWebhookSecret, webhookSecretContext } from './webhook-secret.js';

const PROBLEMS = {
  'not-a-url': 'not a URL',
  scheme: 'only http and https URLs are accepted',
  credentials: 'a URL may not carry credentials',
  'private-target': 'loopback and private addresses are refused (WEBHOOK_ALLOW_PRIVATE_TARGETS)',
} as const;

/**
 * Admins manage the outbound event endpoints (CONTRACT.md section 4: admin by e-mail, decided per
 * request). The secret is generated here, sealed at rest, and shown only in the answer to create
 * and rotate. Endpoints belong to no user: the system unit of work keeps them.
 */
@injectable()
export class ManageWebhookEndpoints {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<'webhookEndpoints' | 'webhookDeliveries'>,
    @inject(SECRET_BOX) private readonly box: SecretBox,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(EVENT_WEBHOOK_SETTINGS) private readonly settings: EventWebhookSettings,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async create(actor: Actor, input: { url: string; eventTypes: WebhookEventType[]; description?: string | undefined }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    requireAdmin(actor);
    const problem = webhookUrlProblem(input.url, this.settings.allowPrivateTargets);
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

  async list(actor: Actor): Promise<WebhookEndpoint[]> {
    requireAdmin(actor);
    return this.uow.asSystem((s) => s.webhookEndpoints.list());
  }

  /** The old secret stops signing at once: deliveries from now on (retries included) use the new one. */
  async rotateSecret(actor: Actor, id: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    requireAdmin(actor);
    const secret = newWebhookSecret(this.ids);
    const sealed = this.box.seal(secret, webhookSecretContext(id));
    const endpoint = await this.uow.asSystem(async (s) => {
      if (!(await s.webhookEndpoints.replaceSecret(id, sealed, this.clock.now()))) return null;
      return s.webhookEndpoints.find(id);
    });
    if (!endpoint) throw new NotFoundError('Webhook endpoint');
    return { endpoint, secret };
  }

  async delete(actor: Actor, id: string): Promise<void> {
    requireAdmin(actor);
    if (!(await this.uow.asSystem((s) => s.webhookEndpoints.delete(id)))) throw new NotFoundError('Webhook endpoint');
  }

  async deliveries(actor: Actor, id: string, limit: number): Promise<WebhookDelivery[]> {
    requireAdmin(actor);
    const found = await this.uow.asSystem(async (s) => ((await s.webhookEndpoints.find(id)) ? s.webhookDeliveries.recent(id, limit) : null));
    if (!found) throw new NotFoundError('Webhook endpoint');
    return found;
  }
}

function requireAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new AdminRequiredError();
}
