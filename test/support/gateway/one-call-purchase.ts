import type { FastifyInstance } from 'fastify';
import { call, type SignedIn } from '../http-client.js';

/**
 * Buys one call of `plugin` as a user does with the development processor: opens the checkout
 * (GET /api/v1/payments/psp/create) and pays it on the completion page. Throws unless both answer
 * as a successful purchase.
 */
export async function buyOneCall(app: FastifyInstance, user: Pick<SignedIn, 'cookie'>, plugin: string): Promise<void> {
  const res = await call(app, { method: 'GET', url: `/api/v1/payments/psp/create?plugin=${encodeURIComponent(plugin)}`, headers: { cookie: user.cookie } });
  if (res.status !== 200) throw new Error(`checkout failed: ${res.status} ${JSON.stringify(res.body)}`);
  const url = new URL(res.body.url as string);
  const done = await call(app, { method: 'GET', url: url.pathname + url.search });
  if (done.status !== 302) throw new Error(`completion failed: ${done.status}`);
}
