import { successResponse, webhookDeliveriesResponse, webhookEndpointsResponse, webhookEndpointWithSecretResponse } from '../schemas/platform.responses.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CreateWebhookEndpoint } from '../../../../application/webhooks/create-webhook-endpoint.use-case.js';
import type { DeleteWebhookEndpoint } from '../../../../application/webhooks/delete-webhook-endpoint.use-case.js';
import type { ListWebhookDeliveries } from '../../../../application/webhooks/list-webhook-deliveries.use-case.js';
import type { ListWebhookEndpoints } from '../../../../application/webhooks/list-webhook-endpoints.use-case.js';
import type { RotateWebhookSecret } from '../../../../application/webhooks/rotate-webhook-secret.use-case.js';
import { createWebhookBody, webhookDeliveriesQuery, webhookParams } from '../schemas/webhooks.schema.js';
import { webhookDeliveryBody, webhookEndpointBody } from '../presenters/webhook-presenters.js';
import type { RouteEdge } from './route-context.js';

export interface WebhookRouteDeps {
  createWebhookEndpoint: CreateWebhookEndpoint;
  listWebhookEndpoints: ListWebhookEndpoints;
  rotateWebhookSecret: RotateWebhookSecret;
  deleteWebhookEndpoint: DeleteWebhookEndpoint;
  listWebhookDeliveries: ListWebhookDeliveries;
}

/** Admins: the endpoints outbound events (user.created, user.updated, user.deleted) are delivered to. */
export const webhookRoutes: FastifyPluginAsyncZod<RouteEdge & WebhookRouteDeps> = async (app, ctx) => {
  const { createWebhookEndpoint, listWebhookEndpoints, rotateWebhookSecret, deleteWebhookEndpoint, listWebhookDeliveries } = ctx;
  const config = { auth: 'required', admin: true } as const;

  app.post('/api/admin/webhooks', { schema: { body: createWebhookBody, response: { 201: webhookEndpointWithSecretResponse } }, config }, async (req, reply) => {
    const { endpoint, secret } = await createWebhookEndpoint.execute(req.actor!, req.body);
    return reply.status(201).send({ ...webhookEndpointBody(endpoint), secret });
  });

  app.get('/api/admin/webhooks', { schema: { response: { 200: webhookEndpointsResponse } }, config }, async (req) => ({ endpoints: (await listWebhookEndpoints.execute(req.actor!)).map(webhookEndpointBody) }));

  app.post('/api/admin/webhooks/:id/rotate-secret', { schema: { params: webhookParams, response: { 200: webhookEndpointWithSecretResponse } }, config }, async (req) => {
    const { endpoint, secret } = await rotateWebhookSecret.execute(req.actor!, req.params.id);
    return { ...webhookEndpointBody(endpoint), secret };
  });

  app.delete('/api/admin/webhooks/:id', { schema: { params: webhookParams, response: { 200: successResponse } }, config }, async (req) => {
    await deleteWebhookEndpoint.execute(req.actor!, req.params.id);
    return { success: true };
  });

  app.get('/api/admin/webhooks/:id/deliveries', { schema: { params: webhookParams, querystring: webhookDeliveriesQuery, response: { 200: webhookDeliveriesResponse } }, config }, async (req) => ({
    deliveries: (await listWebhookDeliveries.execute(req.actor!, { endpointId: req.params.id, limit: req.query.limit })).map(webhookDeliveryBody),
  }));
};
