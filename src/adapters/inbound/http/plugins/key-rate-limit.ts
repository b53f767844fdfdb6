import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { actingKey } from '../../../../application/auth/actor.js';
import { HttpEdgeError } from '../http-error.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The caller's API key's own limit (keyRateLimit below), for a route that identifies its caller
     * in its own hook (the gateway) rather than through the authentication plugin.
     */
    apiKeyRateLimit: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/**
 * An API key's requests a minute (its `rateLimit`, decision 0425), counted per key id with
 * @fastify/rate-limit in the store every route's limit uses (Redis when configured, so shared by
 * every process), on each request made with the key or a JWT issued from it: 429 RATE_LIMITED
 * beyond it, on top of the route's own limits. Runs once the caller is known (after the
 * authentication plugin's hook); a caller without such a key costs one property read.
 *
 * `createRateLimit` rather than a `rateLimit` hook: those share one per-request mark, so a key's
 * check would switch off the route's own limit.
 */
export const keyRateLimit = fp(
  async (app: FastifyInstance) => {
    const count = app.createRateLimit({
      timeWindow: '1 minute',
      max: (req) => (req.actor && actingKey(req.actor.credential)?.limits.rateLimit) || 1,
      keyGenerator: (req) => `api-key:${req.actor && actingKey(req.actor.credential)?.id}`,
    });
    const limited = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const r = await count(req);
      if (r.isAllowed || !r.isExceeded) return;
      reply.header('retry-after', r.ttlInSeconds);
      throw new HttpEdgeError('RATE_LIMITED', `This API key may make ${r.max} requests a minute`);
    };
    const apiKeyRateLimit = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      if (req.actor && actingKey(req.actor.credential)?.limits.rateLimit) await limited(req, reply);
    };
    app.decorate('apiKeyRateLimit', apiKeyRateLimit);
    // the callback form: no promise at all for the many requests made without a limited key
    app.addHook('onRequest', (req, reply, done) => {
      if (!(req.actor && actingKey(req.actor.credential)?.limits.rateLimit)) return done();
      limited(req, reply).then(() => done(), done);
    });
  },
  { name: 'key-rate-limit', dependencies: ['authentication'] },
);
