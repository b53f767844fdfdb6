import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ReceivePaymentWebhook } from '../../../../application/billing/receive-payment-webhook.use-case.js';
import type { RouteEdge } from './route-context.js';
import { z } from 'zod';

export interface PaymentWebhookRouteDeps {
  receivePaymentWebhook: ReceivePaymentWebhook;
}

/**
 * POST /api/webhooks/psp (spec "Events"). The signature covers the exact bytes sent, so this
 * plugin's scope (and only it) replaces the JSON parser with one that keeps the raw body.
 * 200 `OK` for an applied, duplicate or ignored event; 400 for a bad signature or payload, with
 * no effect; 503 when STRIPE_WEBHOOK_SECRET is unset. Any other failure is a 5xx, so the
 * processor redelivers and the ledger keeps the redelivery to one effect.
 */
export const paymentWebhookRoutes: FastifyPluginAsyncZod<RouteEdge & PaymentWebhookRouteDeps> = async (app, { receivePaymentWebhook }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.post('/api/webhooks/psp', { schema: { response: { 200: z.string().describe('`OK`') } }, config: { auth: 'none', openapi: { media: { 200: { 'text/plain': 'response' } } } } }, async (req, reply) => {
    const signature = req.headers['psp-signature'];
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    await receivePaymentWebhook.execute(body, typeof signature === 'string' ? signature : undefined);
    return reply.type('text/plain; charset=utf-8').send('OK');
  });
};
