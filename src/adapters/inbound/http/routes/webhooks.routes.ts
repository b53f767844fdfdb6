import { successResponse, webhookDeliveriesResponse, webhookEndpointsResponse, webhookEndpointWithSecretResponse } from '../schemas/platform.responses.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ManageWebhookEndpoints } from '../../../../application/webhooks/manage-webhook-endpoints.use-case.js';
import { createWebhookBody, webhookDeliveriesQuery, webhookParams } from '../schemas/webhooks.schema.js';
import { webhookDeliveryBody, webhookEndpointBody } from '../presenters/webhook-presenters.js';
import type { RouteContext } from './route-context.js';

/** Admins: the endpoints outbound events (user.created, user.updated, user.deleted) are delivered to. */
export const webhookRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  const manage = () => ctx.container.resolve(ManageWebhookEndpoints);
  const config = { auth: 'required', admin: true } as const;

  app.post('/api/admin/webhooks', { schema: { body: createWebhookBody, response: { 201: webhookEndpointWithSecretResponse } }, config }, async (req, reply) => {
    const { endpoint, secret } = await manage().create(req.actor!, req.body);
    return reply.status(201).send({ ...webhookEndpointBody(endpoint), secret });
  });

  app.get('/api/admin/webhooks', { schema: { response: { 200: webhookEndpointsResponse } }, config }, async (req) => ({ endpoints: (await manage().list(req.actor!)).map(webhookEndpointBody) }));

  app.post('/api/admin/webhooks/:id/rotate-secret', { schema: { params: webhookParams, response: { 200: webhookEndpointWithSecretResponse } }, config }, async (req) => {
    const { endpoint, secret } = await manage().rotateSecret(req.actor!, req.params.id);
    return { ...webhookEndpointBody(endpoint), secret };
  });

  app.delete('/api/admin/webhooks/:id', { schema: { params: webhookParams, response: { 200: successResponse } }, config }, async (req) => {
    await manage().delete(req.actor!, req.params.id);
    return { success: true };
  });

  app.get('/api/admin/webhooks/:id/deliveries', { schema: { params: webhookParams, querystring: webhookDeliveriesQuery, response: { 200: webhookDeliveriesResponse } }, config }, async (req) => ({
    deliveries: (await manage().deliveries(req.actor!, req.params.id, req.query.limit)).map(webhookDeliveryBody),
  }));
};
