import type { InjectionToken } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { ChatGrant } from '../ai/authorize-chat.use-case.js';

/**
 * The contract between the gateway route (payment selection, MPP, CORS, rate limits) and the
 * plugins that do the work. The route validates the body with the plugin's edge schema
 * (src/adapters/inbound/http/schemas/gateway.schema.ts), takes the payment, and only then runs
 * the plugin; a plugin never decides who pays, it is told.
 */

/** Who pays for this one call. */
export type GatewayPayer =
  /** The processor method: an authenticated, subscribed caller; the plugin meters the caller's units (CONTRACT.md section 6). */
  | { readonly kind: 'metered'; readonly userId: UserId; readonly grant: ChatGrant }
  /**
   * Paid in advance for exactly this call: on chain by MPP (`via: 'mpp'`, `receipt` the transaction
   * hash, `userId` only when the caller also authenticated) or by a one-off processor checkout
   * (`via: 'psp'`). Nothing is metered; the plugin runs on the platform's keys at `level`.
   */
  | { readonly kind: 'prepaid'; readonly via: 'mpp' | 'psp'; readonly userId: UserId | null; readonly receipt: string | null; readonly level: ChatGrant['level'] };

export interface GatewayCall<I = unknown> {
  readonly payer: GatewayPayer;
  /** The body the edge schema parsed (without `plugin`). */
  readonly input: I;
  /** Aborted when the client leaves. */
  readonly signal: AbortSignal;
}

/** What a plugin answers: the spec's success body carries it as `message`. */
export interface GatewayResult {
  readonly message: unknown;
  /** Extra top-level fields of the success body (e.g. the agent plugin's `steps`). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Streamed plugins: text deltas in order, then exactly one `done`. Errors surface from the iterator. */
export type GatewayStreamEvent = { readonly type: 'delta'; readonly content: string } | { readonly type: 'done'; readonly result: GatewayResult };

export interface GatewayPlugin<I = unknown> {
  readonly id: GatewayPluginId;
  /** One-line description (the spec's plugin name). */
  readonly name: string;
  run(call: GatewayCall<I>): Promise<GatewayResult>;
  /** Present only on the spec's streaming plugins. */
  stream?(call: GatewayCall<I>): AsyncIterable<GatewayStreamEvent>;
}

/** Every registered plugin; an id with none answers 502 `no_plugin`. */
export const GATEWAY_PLUGINS: InjectionToken<readonly GatewayPlugin[]> = Symbol('GatewayPlugins');
