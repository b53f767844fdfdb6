import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CallGatewayPlugin } from '../../../../application/gateway/call-gateway-plugin.use-case.js';
import type { GatewaySettings } from '../../../../application/ports/gateway-settings.port.js';
import { DomainError } from '../../../../domain/shared/domain-error.js';
import { abortOnClientClose } from '../client-close.js';
import { HttpEdgeError } from '../http-error.js';
import { eventStream } from '../openapi/route-documentation.js';
import { identify } from '../plugins/authentication.js';
import { gatewayEventFrames, gatewaySuccessBody, paymentRequiredBody, paymentRequiredHeader, paymentResponseHeader, wwwAuthenticate } from '../presenters/gateway-presenters.js';
import { headerText } from '../request-headers.js';
import { errorBody } from '../schemas/error.schema.js';
import { gatewayDocumentedBody, gatewayDocumentedHeaders, gatewayResponseHeaders } from '../schemas/gateway.schema.js';
import { gatewayResponse, noContent } from '../schemas/platform.responses.js';
import { sendEventStream, wantsEventStream } from '../server-sent-events.js';
import type { RouteEdge } from './route-context.js';

const PATH = '/api/v1/gateway';

/**
 * CORS (spec "Gateway"): any origin, without credentials. Browsers then send no cookie across
 * origins, so a cross-site page can only pay (MPP) or use a bearer key it holds itself.
 */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Plugin-Id, X-Payment-Method, PAYMENT-SIGNATURE, X-PAYMENT, Access-Control-Expose-Headers',
  'access-control-expose-headers': 'x-plugin-id, Payment-Receipt, WWW-Authenticate, PAYMENT-REQUIRED, PAYMENT-RESPONSE, x-request-id, retry-after',
  'access-control-max-age': '600',
};

/** Session callers whose CSRF token did not match: they are anonymous here, and told why on the processor method. */
const csrfRefused = new WeakSet<FastifyRequest>();

export interface GatewayRouteDeps {
  gatewayCall: CallGatewayPlugin;
  gatewaySettings: GatewaySettings;
}

/**
 * The gateway (spec "Gateway", issue 10): one endpoint routing to the plugins, paid by the
 * caller's subscription or a one-call purchase (processor method) or on chain (MPP). Public in the
 * route table because it authenticates itself: a session, API key or JWT, or a Payment credential.
 * CallGatewayPlugin reads the body, picks the plugin and takes the payment; errors are the error
 * map's (gateway family: 401 `Unauthorized`, 502 `no_plugin`). The 402 is the challenge itself, an
 * offer the spec shapes, so it is answered here (decision 0405).
 */
export const gatewayRoutes: FastifyPluginAsyncZod<RouteEdge & GatewayRouteDeps> = async (app, ctx) => {
  const { gatewayCall, gatewaySettings } = ctx;

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

  app.options(PATH, { schema: { response: { 204: noContent } }, config: { auth: 'none' }, onRequest: cors }, async (_req, reply) => reply.status(204).send(null));

  app.post(
    PATH,
    {
      schema: { response: { 200: gatewayResponse, 400: errorBody, 401: errorBody, 402: errorBody, 403: errorBody, 429: errorBody, 500: errorBody, 502: errorBody, 503: errorBody } },
      config: {
        auth: 'none',
        errorFamily: 'gateway',
        openapi: { body: gatewayDocumentedBody, headers: gatewayDocumentedHeaders, responseHeaders: gatewayResponseHeaders, media: { 200: { 'application/json': 'response', 'text/event-stream': eventStream } } },
        // per user when the caller authenticated, else per IP (a Payment credential is no identity: anyone can mint nonces)
        rateLimit: { max: gatewaySettings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => (req.actor ? `u:${req.actor.userId}` : `ip:${req.ip}`) },
      },
      // the caller's API key's own limit (decision 0425), once the caller is known
      onRequest: [cors, identifyCaller, app.apiKeyRateLimit],
    },
    async (req, reply) => {
      const outcome = await gatewayCall.execute({
        pluginHeader: headerText(req, 'x-plugin-id'),
        body: req.body,
        namedMethod: headerText(req, 'x-payment-method'),
        authorization: headerText(req, 'authorization'),
        paymentSignature: headerText(req, 'payment-signature') ?? headerText(req, 'x-payment'),
        caller: req.actor,
        stream: wantsEventStream(req),
        signal: abortOnClientClose(reply),
      });
      if (outcome.kind === 'unauthorized') {
        throw csrfRefused.has(req) ? new HttpEdgeError('CSRF_TOKEN_MISSING', 'CSRF token missing or invalid') : new HttpEdgeError('AUTH_REQUIRED', 'Unauthorized');
      }
      reply.header('x-plugin-id', outcome.plugin);
      if (outcome.kind === 'challenge') {
        if (outcome.reason) req.log.info({ reason: outcome.reason.code }, 'Payment credential refused');
        const header = wwwAuthenticate(outcome.challenge);
        if (header) reply.header('www-authenticate', header);
        const x402 = paymentRequiredHeader(outcome.challenge, outcome.reason);
        if (x402) reply.header('payment-required', x402);
        return reply.status(402).send(paymentRequiredBody(outcome.challenge, outcome.reason));
      }
      const { plugin, method, receipt, settlement, answer } = outcome;
      if (receipt) reply.header('payment-receipt', receipt);
      if (settlement) reply.header('payment-response', paymentResponseHeader(settlement));
      if (answer.kind === 'answered') return gatewaySuccessBody(plugin, answer.result, method, receipt);
      return sendEventStream(reply, gatewayEventFrames(answer.events, (r) => gatewaySuccessBody(plugin, r, method, receipt), req.log));
    },
  );
};
