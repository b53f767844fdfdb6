import { inject, injectable } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { Actor } from '../auth/actor.js';
import { StartCheckout } from '../billing/start-checkout.use-case.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { GatewayUserScope } from '../ports/scopes/gateway-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';

/**
 * Opens a one-off processor checkout for one call of a gateway plugin (issue 10 item 4). The
 * grant's id is chosen first and travels in the checkout's metadata; the grant row is written,
 * `pending`, only after the processor answered, so a processor failure (502) leaves nothing. The
 * buyer cannot pay before the URL is returned, so the completion always finds the row. Paying
 * marks it paid (ApplyPaymentEvent); the gateway consumes it (OneCallGrants).
 */
@injectable()
export class StartOneCallCheckout {
  constructor(
    @inject(StartCheckout) private readonly checkout: StartCheckout,
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<GatewayUserScope, 'oneCallGrants'>,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Actor, plugin: GatewayPluginId): Promise<{ url: string; grantId: string }> {
    const grantId = this.ids.uuid();
    const { url, sessionId } = await this.checkout.execute(actor, { kind: 'one-call', plugin, grantId });
    if (!sessionId) throw new Error('StartOneCallCheckout: the checkout opened no processor session');
    await this.uow.asUser(actor.userId, (s) => s.oneCallGrants.open({ id: grantId, plugin, sessionId }));
    return { url, grantId };
  }
}
