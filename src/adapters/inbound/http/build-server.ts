import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type onResponseHookHandler } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { DependencyContainer } from 'tsyringe';
import { webConsole, type WebConsoleOptions } from '../web/web-console.js';
import { HttpEdgeError } from './http-error.js';
import { RequestLogAtDebug } from './request-log-controller.js';
import { lazyChildLoggerFactory } from './lazy-request-logger.js';
import { fastSerializerCompiler } from './openapi/fast-serializer.js';
import { openApiDocument, openApiReference } from './openapi/openapi.js';
import { authentication } from './plugins/authentication.js';
import { keyRateLimit } from './plugins/key-rate-limit.js';
import { boundJsonDepth } from './plugins/bounded-json-parser.js';
import { errorHandler } from './plugins/error-handler.js';
import { storableTextGuard } from './plugins/storable-text-guard.js';
import { routeInventory } from './plugins/route-inventory.js';
import type { RouteTimings } from './plugins/route-timings.js';
import { routes } from './routes/index.js';
import type { RouteEdge } from './routes/route-context.js';
import { BODY_LIMIT_BYTES } from './body-limit.js';

export { BODY_LIMIT_BYTES };

export interface ServerOptions extends RouteEdge {
  /** What the routes use, resolved once as they are registered (routes/index.ts). */
  container: DependencyContainer;
  logger: FastifyBaseLogger;
  timings: RouteTimings;
  redis?: Redis | undefined;
  /** Plugins added after every area's routes (tests' own routes), registered with the edge helpers. */
  extraRoutes?: ((app: FastifyInstance, edge: RouteEdge) => Promise<void>)[];
  /** The web console at `/` (and every path outside /api); left out, those paths answer the JSON 404. */
  webConsole?: WebConsoleOptions;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP app; `listen` is the caller's business, so tests drive it with `inject`. */
export async function buildServer(o: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: o.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: false,
    // Read in genReqId instead, so a malformed incoming id is replaced rather than trusted.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    logController: new RequestLogAtDebug({ requestIdLogLabel: 'requestId' }),
    childLoggerFactory: lazyChildLoggerFactory,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(fastSerializerCompiler);
  app.setErrorHandler(errorHandler);
  // JSON only: a text body is a client mistake answered 415, not a string for the validators.
  app.removeContentTypeParser(['text/plain']);
  boundJsonDepth(app);
  app.setNotFoundHandler(async (req) => {
    throw new HttpEdgeError('NOT_FOUND', `Route ${req.method} ${req.url.split('?')[0]} not found`);
  });

  // Hooks on every request take the callback form: no promise and no extra microtask each.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  // While shutting down, answers to requests still in flight close their connection, so a
  // keep-alive client cannot hold the server open after its last response.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // Each route's timings recorder is found once, as the route is added; a request neither builds
  // the route's key nor reads routeOptions (a new object on every read). Requests that match no
  // route are recorded by the server-wide hook.
  app.addHook('onRoute', (route) => {
    const recorders = new Map([route.method].flat().map((method) => [method, o.timings.recorder(`${method} ${route.url}`)]));
    const timing: onResponseHookHandler = (req, reply, done) => {
      recorders.get(req.method)?.(reply.statusCode, reply.elapsedTime);
      done();
    };
    route.onResponse = [...[route.onResponse ?? []].flat(), timing];
  });
  app.addHook('onResponse', (req, reply, done) => {
    if (req.is404) o.timings.record(`${req.method} (unmatched)`, reply.statusCode, reply.elapsedTime);
    done();
  });

  await app.register(cookie, { hook: 'onRequest' });
  await app.register(rateLimit, {
    global: false,
    // skipOnError: a store that cannot answer lets requests through (see docs/decisions/0019-rate-limits-shared-fail-open.md).
    ...(o.redis ? { redis: o.redis, nameSpace: 'agent-host-rl:', skipOnError: true } : {}),
    errorResponseBuilder: () => new HttpEdgeError('RATE_LIMITED', 'Too many requests, try again later'),
  });
  // before the inventory: it marks the reference's own routes public as they are added
  await app.register(openApiDocument, { sessionCookie: o.cookies.session });
  await app.register(routeInventory);
  await app.register(authentication, { authenticator: o.authenticator, cookies: o.cookies, csrf: o.csrf });
  await app.register(keyRateLimit);
  await app.register(storableTextGuard);
  await app.register(openApiReference);

  const edge: RouteEdge = { cookies: o.cookies, csrf: o.csrf, authenticator: o.authenticator, authRateLimit: o.authRateLimit };
  for (const register of routes(o.container)) await register(app, edge);
  for (const extra of o.extraRoutes ?? []) await app.register(extra, edge);
  if (o.webConsole) await app.register(webConsole, o.webConsole);
  return app;
}
