import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ManageWebhookEndpoints } from '../../../../application/webhooks/manage-webhook-endpoints.use-case.js';
import { createWebhookBody, webhookDeliveriesQuery, webhookParams } from '../schemas/webhooks.schema.js';
import { webhookDeliveryBody, webhookEndpointBody } from '../webhook-presenters.js';
import type { RouteContext } from './route-context.js';

/** Admins: the endpoints outbound events (user.created, user.updated, user.deleted) are delivered to. */
export const webhookRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  const manage = () => ctx.container.resolve(ManageWebhookEndpoints);
  const config = { auth: 'required', admin: true } as const;

  app.post('/api/admin/webhooks', { schema: { body: createWebhookBody }, config }, async (req, reply) => {
    const { endpoint, secret } = await manage().create(req.actor!, req.body);
    return reply.status(201).send({ ...webhookEndpointBody(endpoint), secret });
  });

  app.get('/api/admin/webhooks', { config }, async (req) => ({ endpoints: (await manage().list(req.actor!)).map(webhookEndpointBody) }));

  app.post('/api/admin/webhooks/:id/rotate-secret', { schema: { params: webhookParams }, config }, async (req) => {
    const { endpoint, secret } = await manage().rotateSecret(req.actor!, req.params.id);
    return { ...webhookEndpointBody(endpoint), secret };
  });

  app.delete('/api/admin/webhooks/:id', { schema: { params: webhookParams }, config }, async (req) => {
    await manage().delete(req.actor!, req.params.id);
    return { success: true };
  });

  app.get('/api/admin/webhooks/:id/deliveries', { schema: { params: webhookParams, querystring: webhookDeliveriesQuery }, config }, async (req) => ({
    deliveries: (await manage().deliveries(req.actor!, req.params.id, req.query.limit)).map(webhookDeliveryBody),
  }));
};
