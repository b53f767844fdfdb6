import { randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import type { DependencyContainer } from 'tsyringe';
import { ChatMetering } from '../../../src/application/ai/chat-metering.js';
import { CIRCUIT_BREAKER_SETTINGS, DEFAULT_BREAKER_SETTINGS } from '../../../src/application/ports/circuit-breaker-settings.port.js';
import { USAGE_METER } from '../../../src/application/ports/usage-meter.port.js';
import type { PurchasablePlan } from '../../../src/domain/billing/purchasable-plan.js';
import type { SubscriptionStatus } from '../../../src/domain/billing/subscription.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { call, type SignedIn } from '../http-client.js';

/** Breakers that never open, so one test's failures cannot change the next test's routing. */
export const patientBreakers = (c: DependencyContainer) =>
  c.register(CIRCUIT_BREAKER_SETTINGS, { useValue: { ...DEFAULT_BREAKER_SETTINGS, consecutiveFailures: 1_000_000, minCallsInWindow: 1_000_000 } });

/** A subscription row as the payment webhook would leave it; returns its processor id. */
export async function subscribe(
  owner: Pool,
  userId: string,
  plan: PurchasablePlan | string,
  status: SubscriptionStatus = 'active',
): Promise<string> {
  const p: PurchasablePlan = typeof plan === 'string' ? { catalog: 'checkout', plan: plan as never } : plan;
  const id = `sub_${randomBytes(8).toString('hex')}`;
  await owner.query(
    `insert into subscriptions (processor_subscription_id, user_id, customer_id, kind, catalog, plan, status, last_event_at)
     values ($1, $2, $3, 'subscription', $4, $5, $6, now())`,
    [id, userId, `cus_${randomBytes(6).toString('hex')}`, p.catalog, p.plan, status],
  );
  return id;
}

export const hi = [{ role: 'user', content: 'Hello there' }];

/** POST /api/ai/chat as a signed-in browser (session cookie and CSRF token). */
export function chat(
  app: FastifyInstance,
  user: SignedIn,
  opts: { plan?: string; subscription?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...user.headers, ...opts.headers };
  if (opts.plan !== undefined) headers['x-user-plan'] = opts.plan;
  if (opts.subscription !== undefined) headers['x-payment-subscription-id'] = opts.subscription;
  return call(app, { method: 'POST', url: '/api/ai/chat', headers, payload: (opts.body ?? { messages: hi }) as object });
}

/**
 * A JSON POST to `url` on its own connection (no pool), so "the client disconnects" is exactly one
 * socket being destroyed and nothing else stays open.
 */
export function rawPost(url: string, headers: Record<string, string>, body: unknown) {
  const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json' } });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  response.catch(() => undefined /* the test destroys the request on purpose */);
  req.end(JSON.stringify(body));
  return { response, disconnect: () => req.destroy() };
}

/** Today's units used by the user, as the meter reports them once the settlements in flight are done. */
export async function unitsUsed(container: DependencyContainer, userId: string): Promise<{ used: number; credits: number }> {
  await container.resolve(ChatMetering).drain();
  const u = await container.resolve(USAGE_METER).usage(userId as UserId);
  return { used: u.used, credits: u.credits };
}

/** The payer's reservations, oldest first. */
export async function reservationsOf(owner: Pool, userId: string): Promise<{ units: number; status: string; settled_units: number | null }[]> {
  return (await owner.query(`select units, status, settled_units from usage_reservations where payer = $1 order by created_at`, [userId])).rows;
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Splits a server-sent event body into `{event, data}` with data parsed as JSON. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      return { event, data: JSON.parse(data) };
    });
}
