import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateApiKey } from '../../../../application/api-keys/create-api-key.use-case.js';
import { DeleteApiKey } from '../../../../application/api-keys/delete-api-key.use-case.js';
import { GetApiKey } from '../../../../application/api-keys/get-api-key.use-case.js';
import { ListApiKeys } from '../../../../application/api-keys/list-api-keys.use-case.js';
import { apiKeyBody } from '../presenters/account-presenters.js';
import { createKeyBody, keyParams } from '../schemas/accounts.schema.js';
import type { RouteContext } from './route-context.js';
import { apiKeyResponse, apiKeysResponse, createdApiKeyResponse } from '../schemas/platform.responses.js';
import { successBody } from '../schemas/error.schema.js';

/** /api/keys: the raw key appears once, in the create response. */
export const apiKeyRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { container }) => {
  const config = { auth: 'required' as const };

  app.get('/api/keys', { schema: { response: { 200: apiKeysResponse } }, config }, async (req) => ({ keys: (await container.resolve(ListApiKeys).execute(req.actor!)).map(apiKeyBody) }));

  app.post('/api/keys', { schema: { body: createKeyBody, response: { 201: createdApiKeyResponse } }, config }, async (req, reply) => {
    const k = await container.resolve(CreateApiKey).execute(req.actor!, req.body);
    return reply.status(201).send({ id: k.id, name: k.name, key: k.key, keyPreview: k.preview, createdAt: k.createdAt.toISOString() });
  });

  app.get('/api/keys/:id', { schema: { params: keyParams, response: { 200: apiKeyResponse } }, config }, async (req) => apiKeyBody(await container.resolve(GetApiKey).execute(req.actor!, req.params.id)));

  app.delete('/api/keys/:id', { schema: { params: keyParams, response: { 200: successBody } }, config }, async (req) => {
    await container.resolve(DeleteApiKey).execute(req.actor!, req.params.id);
    return { success: true };
  });
};
