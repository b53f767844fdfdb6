import { errorBody } from '../schemas/error.schema.js';
import { gatewayResponse, noContent } from '../schemas/platform.responses.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { InvalidInputError } from '../../../../application/errors.js';
import { GATEWAY_PLUGINS, type GatewayCall, type GatewayPlugin, type GatewayStreamEvent } from '../../../../application/ports/gateway-plugin.port.js';
import { GATEWAY_SETTINGS } from '../../../../application/ports/gateway-settings.port.js';
import type { PaymentChallenge } from '../../../../application/gateway/issue-payment-challenge.use-case.js';
import { PayForGatewayCall, type ChallengeReason } from '../../../../application/gateway/pay-for-gateway-call.use-case.js';
import { RunGatewayCall } from '../../../../application/gateway/run-gateway-call.use-case.js';
import { DEFAULT_GATEWAY_PLUGIN, isGatewayPluginId } from '../../../../domain/gateway/gateway-plugin-id.js';
import { DomainError } from '../../../../domain/shared/domain-error.js';
import { abortOnClientClose } from '../client-close.js';
import { headerText } from '../request-headers.js';
import { sendEventStream, sseFrame, wantsEventStream } from '../server-sent-events.js';
import { httpErrorFor } from '../error-map.js';
import { gatewaySuccessBody, paymentRequiredBody, wwwAuthenticate } from '../presenters/gateway-presenters.js';
import { HttpEdgeError } from '../http-error.js';
import { identify } from '../plugins/authentication.js';
import { GATEWAY_BODY_SCHEMAS, gatewayDocumentedBody, gatewayDocumentedHeaders } from '../schemas/gateway.schema.js';
import { eventStream } from '../openapi/route-documentation.js';
import type { RouteContext } from './route-context.js';

const PATH = '/api/v1/gateway';

/**
 * CORS (spec "Gateway"): any origin, without credentials. Browsers then send no cookie across
 * origins, so a cross-site page can only pay (MPP) or use a bearer key it holds itself.
 */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Plugin-Id, X-Payment-Method',
  'access-control-expose-headers': 'x-plugin-id, Payment-Receipt, WWW-Authenticate, x-request-id, retry-after',
  'access-control-max-age': '600',
};

/** Session callers whose CSRF token did not match: they are anonymous here, and told why on the processor method. */
const csrfRefused = new WeakSet<FastifyRequest>();

/**
 * The gateway (spec "Gateway", issue 10): one endpoint routing to the plugins, paid by the
 * caller's subscription or a one-call purchase (processor method) or on chain (MPP). Public in the
 * route table because it authenticates itself: a session, API key or JWT, or a Payment credential.
 * Order: plugin (502 no_plugin) → method → on the processor method, a caller (401) → body (400,
 * before any challenge is issued or payment taken; a prepaid call's size bounds too) → payment
 * (402) → the plugin, which runs only once its payment is taken.
 */
export const gatewayRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  const { container } = ctx;
  const settings = container.resolve(GATEWAY_SETTINGS);
  const plugins = new Map<string, GatewayPlugin>(
    (container.isRegistered(GATEWAY_PLUGINS, true) ? container.resolve(GATEWAY_PLUGINS) : []).map((p) => [p.id, p]),
  );

  const identifyCaller = async (req: FastifyRequest) => {
    let bearer = false;
    try {
      ({ actor: req.actor, bearer } = await identify(req, ctx));
    } catch (err) {
      // an invalid or revoked bearer is simply no caller: the processor method answers 401 Unauthorized
      if (!(err instanceof DomainError)) throw err;
      req.actor = null;
    }
    const credential = req.actor?.credential;
    // a session sent as a Bearer token (social sign-in) is not sent by a browser on its own: no CSRF
    if (credential?.kind === 'session' && !bearer && !ctx.csrf.matches(credential.sessionId, headerText(req, 'x-csrf-token'))) {
      csrfRefused.add(req);
      req.actor = null;
    }
  };

  const cors = async (_req: FastifyRequest, reply: FastifyReply) => {
    reply.headers(CORS);
  };

  const unauthorized = (req: FastifyRequest, reply: FastifyReply) => {
    if (csrfRefused.has(req)) throw new HttpEdgeError('CSRF_TOKEN_MISSING', 'CSRF token missing or invalid');
    return reply.status(401).send({ error: 'Unauthorized' });
  };

  const paymentRequired = (req: FastifyRequest, reply: FastifyReply, challenge: PaymentChallenge, reason?: ChallengeReason) => {
    if (reason) req.log.info({ reason: reason.code }, 'Payment credential refused');
    const header = wwwAuthenticate(challenge);
    if (header) reply.header('www-authenticate', header);
    return reply.status(402).send(paymentRequiredBody(challenge, reason));
  };

  app.options(PATH, { schema: { response: { 204: noContent } }, config: { auth: 'none' }, onRequest: cors }, async (_req, reply) => reply.status(204).send(null));

  app.post(
    PATH,
    {
      schema: { response: { 200: gatewayResponse, 400: errorBody, 401: errorBody, 402: errorBody, 403: errorBody, 429: errorBody, 500: errorBody, 502: errorBody, 503: errorBody } },
      config: {
        auth: 'none',
        errorFamily: 'gateway',
        openapi: { body: gatewayDocumentedBody, headers: gatewayDocumentedHeaders, media: { 200: { 'application/json': 'response', 'text/event-stream': eventStream } } },
        // per user when the caller authenticated, else per IP (a Payment credential is no identity: anyone can mint nonces)
        rateLimit: { max: settings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => (req.actor ? `u:${req.actor.userId}` : `ip:${req.ip}`) },
      },
      onRequest: [cors, identifyCaller],
    },
    async (req, reply) => {
      const raw = req.body ?? {};
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InvalidInputError('VALIDATION_ERROR', 'The body must be a JSON object');
      const { plugin: named, ...rest } = raw as Record<string, unknown>;
      if (named !== undefined && typeof named !== 'string') throw new InvalidInputError('VALIDATION_ERROR', 'plugin must be a string');
      const id = headerText(req, 'x-plugin-id')?.trim() || named || DEFAULT_GATEWAY_PLUGIN;
      const plugin = isGatewayPluginId(id) ? plugins.get(id) : undefined;
      if (!plugin || !isGatewayPluginId(id)) return reply.status(502).send({ error: 'no_plugin', message: `No plugin handles ${JSON.stringify(id.slice(0, 64))}` });
      const payment = await container.resolve(PayForGatewayCall).execute({
        plugin: id,
        namedMethod: headerText(req, 'x-payment-method'),
        authorization: headerText(req, 'authorization'),
        caller: req.actor,
        readInput: () => GATEWAY_BODY_SCHEMAS[id].parse(rest),
      });
      if (payment.kind === 'unauthorized') return unauthorized(req, reply);
      reply.header('x-plugin-id', id);
      if (payment.kind === 'challenge') return paymentRequired(req, reply, payment.challenge, payment.reason);
      const { method, input, payer, taken, receipt } = payment;
      if (receipt) reply.header('payment-receipt', receipt);

      const call: GatewayCall = { payer, input, signal: abortOnClientClose(reply) };
      const runner = container.resolve(RunGatewayCall);
      if (!(wantsEventStream(req) && plugin.stream)) {
        return gatewaySuccessBody(id, await runner.run(plugin, call, taken), method, receipt);
      }
      // the first event is awaited before the headers go: a provider that fails at once is still a 502
      const events = runner.stream(plugin, call, taken)[Symbol.asyncIterator]();
      const first = await events.next();
      return sendEventStream(reply, sseFrames(first, events, (e) => gatewaySuccessBody(id, e, method, receipt), req));
    },
  );
};

/**
 * The gateway's stream as server-sent events: `delta` frames `{content}`, then one `done` whose
 * data is the whole success body, or one `error` `{error, code}` when the plugin fails midway.
 */
async function* sseFrames(
  first: IteratorResult<GatewayStreamEvent>,
  rest: AsyncIterator<GatewayStreamEvent>,
  body: (r: Extract<GatewayStreamEvent, { type: 'done' }>['result']) => unknown,
  req: FastifyRequest,
): AsyncGenerator<string> {
  let next = first;
  while (!next.done) {
    const e = next.value;
    yield e.type === 'delta' ? sseFrame('delta', { content: e.content }) : sseFrame('done', body(e.result));
    try {
      next = await rest.next();
    } catch (err) {
      const code = err instanceof DomainError ? httpErrorFor(err.code, 'gateway').code : 'INTERNAL';
      if (!(err instanceof DomainError)) req.log.error({ err }, 'gateway stream failed');
      yield sseFrame('error', { error: err instanceof DomainError ? err.message : 'internal', code });
      return;
    }
  }
}
