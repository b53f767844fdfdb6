import { inject, injectable } from 'tsyringe';
import { bestChatLevel } from '../../domain/ai/chat-access.js';
import { ADMIN_CHAT_LEVEL } from '../../domain/billing/entitlements.js';
import type { ChatLevel } from '../../domain/billing/plan-catalogs.js';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { actingKey, type Actor } from '../auth/actor.js';
import { ONE_CALL_GRANTS, type OneCallGrants } from '../ports/one-call-grants.port.js';
import { UNIT_OF_WORK, type HotRead } from '../ports/unit-of-work.port.js';
import type { GatewayPayer } from '../ports/gateway-plugin.port.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings.port.js';
import { assertWithinPrepaidBounds } from './prepaid-call-bounds.js';

/** The level a one-call purchase (processor or chain) runs at: the lowest, whose models every price covers. */
export const PREPAID_LEVEL: ChatLevel = 'label';

export type ProcessorPayment =
  | { readonly payer: GatewayPayer; readonly grantId: null }
  | { readonly payer: GatewayPayer; readonly grantId: string };

/**
 * The gateway's processor method (spec "Payment method selection", CONTRACT.md sections 5 and 6)
 * for an authenticated caller: subscribed (the best chat level among the caller's subscribed
 * subscriptions; admins at network level) → the caller's units are metered; else one paid
 * one-call grant of this plugin is taken; else null (402). A body larger than a prepaid call may
 * be is refused (400) before a grant is taken.
 */
@injectable()
export class ChooseProcessorPayer {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: HotRead<'chatAccess'>,
    @inject(ONE_CALL_GRANTS) private readonly grants: OneCallGrants,
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  async execute(actor: Actor, plugin: GatewayPluginId, input: unknown): Promise<ProcessorPayment | null> {
    const access = await this.uow.readAsUser(actor.userId, 'chatAccess');
    const level = actor.role === 'admin' ? ADMIN_CHAT_LEVEL : bestChatLevel(access.subscriptions);
    if (level) {
      // under the caller's API key, if any: its models and daily units bound the call as on /api/ai/chat
      const grant = { actor, level, payer: actor.userId, byokProviders: access.byokProviders, key: actingKey(actor.credential) };
      return { payer: { kind: 'metered', userId: actor.userId, grant }, grantId: null };
    }
    // from here the call is prepaid (a grant, or the 402 offering one): bounded before anything is taken
    assertWithinPrepaidBounds(plugin, input, this.settings.prepaid);
    const taken = await this.grants.consume(actor.userId, plugin);
    if (!taken) return null;
    return { payer: { kind: 'prepaid', via: 'psp', userId: actor.userId, receipt: null, level: PREPAID_LEVEL }, grantId: taken.grantId };
  }
}
