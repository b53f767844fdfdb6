import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { UserId } from '../../domain/shared/ids.js';

/** The acting user's one-call grants (user unit of work; RLS keeps other users' grants out). */
export interface OneCallGrantRepository {
  /** Records the grant of a checkout just opened, `pending` until the processor confirms it. */
  open(grant: { id: string; plugin: GatewayPluginId; sessionId: string }): Promise<void>;
  /**
   * Marks one of the user's paid, unused grants of `plugin` consumed and returns its id, or null.
   * A grant another transaction is taking is skipped, never waited for: of concurrent takers of
   * one grant exactly one gets it.
   */
  takeOne(plugin: GatewayPluginId): Promise<string | null>;
}

/** What marking a grant paid did. */
export type GrantPaidOutcome = 'paid' | 'already-paid' | 'unknown';

/** One-call grants across users (system unit of work: the processor's confirmation, restores). */
export interface SystemOneCallGrantRepository {
  /**
   * Moves the grant from `pending` to `paid`, only when every fact matches what was opened (user,
   * plugin, checkout session): `unknown` otherwise, `already-paid` when it was paid before.
   */
  markPaid(p: { grantId: string; userId: UserId; plugin: GatewayPluginId; sessionId: string; eventId: string }): Promise<GrantPaidOutcome>;
  /** Moves a consumed grant back to paid; false when it was not consumed (already restored). */
  restore(grantId: string): Promise<boolean>;
}
