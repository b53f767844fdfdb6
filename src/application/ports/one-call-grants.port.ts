import type { InjectionToken } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * Calls of one gateway plugin bought one at a time through a one-off processor checkout
 * (`GET /api/v1/payments/psp/create?plugin=`; issue 10 item 4). The gateway's processor method
 * uses one when the caller has no subscription.
 */
export interface OneCallGrants {
  /**
   * Takes one unused, paid call of `plugin` bought by `userId`, or null when there is none.
   * Atomic: two concurrent calls never take the same grant.
   */
  consume(userId: UserId, plugin: GatewayPluginId): Promise<{ grantId: string } | null>;
  /** Gives a taken grant back, once, when the plugin failed after it was taken. */
  restore(grantId: string): Promise<void>;
}

export const ONE_CALL_GRANTS: InjectionToken<OneCallGrants> = Symbol('OneCallGrants');
