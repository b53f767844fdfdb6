import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * The test app holds every answer `app.inject` gets to the OpenAPI document (test-app.ts,
 * documented-responses.ts). A route whose answer drifts from its declared schema, here one sending
 * its own JSON text past the serializer, fails the request that reached it.
 */
const drifting = async (app: FastifyInstance) => {
  const answer = z.object({ name: z.string() });
  app.get('/api/test-drift', { schema: { operationId: 'testDrift', summary: 'A route that drifts', response: { 200: answer } } as never, config: { auth: 'none' } }, async (req, reply) =>
    reply.type('application/json').send((req.query as { as?: string }).as === 'documented' ? '{"name":"kept"}' : '{"title":"renamed"}'),
  );
};

const { app } = await startTestApp({ routes: [drifting] });

describe('answers held to the document in every HTTP test', () => {
  it('when a route answers as documented, then the call goes through', async () => {
    expect(await call(app, { method: 'GET', url: '/api/test-drift?as=documented' })).toMatchObject({ status: 200, body: { name: 'kept' } });
  });

  it('when a route answers a body its schema does not describe, then the call fails, naming the operation and the complaint', async () => {
    await expect(call(app, { method: 'GET', url: '/api/test-drift' })).rejects.toThrow(/GET \/api\/test-drift answered 200 with a body the document's 200 schema refuses: \(body\) must have required property 'name'/);
  });
});
