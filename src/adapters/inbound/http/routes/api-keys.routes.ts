import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiKeyLimits } from '../../../../domain/accounts/api-key-limits.js';
import type { CreateApiKey } from '../../../../application/api-keys/create-api-key.use-case.js';
import type { DeleteApiKey } from '../../../../application/api-keys/delete-api-key.use-case.js';
import type { GetApiKey } from '../../../../application/api-keys/get-api-key.use-case.js';
import type { ListApiKeys } from '../../../../application/api-keys/list-api-keys.use-case.js';
import type { UpdateApiKey } from '../../../../application/api-keys/update-api-key.use-case.js';
import { apiKeyBody, apiKeyLimitsBody } from '../presenters/account-presenters.js';
import { createKeyBody, keyParams, patchKeyBody } from '../schemas/accounts.schema.js';
import type { RouteEdge } from './route-context.js';
import { apiKeyResponse, apiKeysResponse, createdApiKeyResponse } from '../schemas/platform.responses.js';
import { successBody } from '../schemas/error.schema.js';

export interface ApiKeyRouteDeps {
  listApiKeys: ListApiKeys;
  createApiKey: CreateApiKey;
  getApiKey: GetApiKey;
  updateApiKey: UpdateApiKey;
  deleteApiKey: DeleteApiKey;
}

type LimitFields = { dailyUnits?: number | null; models?: string[] | null; expiresAt?: string | null; rateLimit?: number | null };

/** The limits a body names (absent ones left out: on PATCH they stay as they are), as the use cases take them. */
function limitsOf(body: LimitFields): Partial<ApiKeyLimits> {
  const { dailyUnits, models, expiresAt, rateLimit } = body;
  return {
    ...(dailyUnits !== undefined ? { dailyUnits } : {}),
    ...(models !== undefined ? { models } : {}),
    ...(expiresAt !== undefined ? { expiresAt: expiresAt === null ? null : new Date(expiresAt) } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
  };
}

/** /api/keys: the raw key appears once, in the create response; limits are set on create and PATCH. */
export const apiKeyRoutes: FastifyPluginAsyncZod<RouteEdge & ApiKeyRouteDeps> = async (app, { listApiKeys, createApiKey, getApiKey, updateApiKey, deleteApiKey }) => {
  const config = { auth: 'required' as const };

  app.get('/api/keys', { schema: { response: { 200: apiKeysResponse } }, config }, async (req) => ({ keys: (await listApiKeys.execute(req.actor!)).map(apiKeyBody) }));

  app.post('/api/keys', { schema: { body: createKeyBody, response: { 201: createdApiKeyResponse } }, config }, async (req, reply) => {
    const k = await createApiKey.execute(req.actor!, { name: req.body.name, ...limitsOf(req.body) });
    return reply.status(201).send({ id: k.id, name: k.name, key: k.key, keyPreview: k.preview, createdAt: k.createdAt.toISOString(), ...apiKeyLimitsBody(k) });
  });

  app.get('/api/keys/:id', { schema: { params: keyParams, response: { 200: apiKeyResponse } }, config }, async (req) => apiKeyBody(await getApiKey.execute(req.actor!, req.params.id)));

  app.patch('/api/keys/:id', { schema: { params: keyParams, body: patchKeyBody, response: { 200: apiKeyResponse } }, config }, async (req) =>
    apiKeyBody(await updateApiKey.execute(req.actor!, req.params.id, limitsOf(req.body))),
  );

  app.delete('/api/keys/:id', { schema: { params: keyParams, response: { 200: successBody } }, config }, async (req) => {
    await deleteApiKey.execute(req.actor!, req.params.id);
    return { success: true };
  });
};
