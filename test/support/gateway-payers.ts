import type { Pool } from 'pg';
import type { DependencyContainer } from 'tsyringe';
import { AuthorizeChat } from '../../src/application/ai/authorize-chat.use-case.js';
import { GATEWAY_PLUGINS, type GatewayCall, type GatewayPayer, type GatewayPlugin, type GatewayStreamEvent } from '../../src/application/ports/gateway-plugin.port.js';
import type { GatewayPluginId } from '../../src/domain/gateway/gateway-plugin-id.js';
import type { ChatLevel } from '../../src/domain/billing/plan-catalogs.js';
import type { UserId } from '../../src/domain/shared/ids.js';
import { subscribe } from './ai/chat-fixtures.js';

/** A registered plugin, as the gateway route finds it. */
export const pluginOf = (c: DependencyContainer, id: GatewayPluginId): GatewayPlugin =>
  c.resolve(GATEWAY_PLUGINS).find((p) => p.id === id)!;

/** The processor method's payer: a subscribed user and the grant AuthorizeChat gives them. */
export async function meteredPayer(c: DependencyContainer, owner: Pool, user: { id: string; email?: string }, plan: ChatLevel = 'label'): Promise<GatewayPayer> {
  const sub = await subscribe(owner, user.id, plan);
  const actor = { userId: user.id as UserId, email: user.email ?? 'someone@example.test', emailVerified: true, role: 'user' as const, credential: { kind: 'session' as const, sessionId: 'test' } };
  const grant = await c.resolve(AuthorizeChat).execute(actor, { plan, subscriptionId: sub }).confirmation;
  return { kind: 'metered', userId: user.id as UserId, grant };
}

/** An MPP payment (anonymous unless `userId`), at `level`. */
export const prepaidPayer = (level: ChatLevel = 'label', userId: string | null = null): GatewayPayer =>
  ({ kind: 'prepaid', via: 'mpp', userId: userId as UserId | null, receipt: `0x${'ab'.repeat(32)}`, level });

export const callWith = <I>(payer: GatewayPayer, input: I, signal = new AbortController().signal): GatewayCall<I> => ({ payer, input, signal });

export async function collect(events: AsyncIterable<GatewayStreamEvent>): Promise<GatewayStreamEvent[]> {
  const out: GatewayStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
