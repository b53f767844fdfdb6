import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CheckTokenGate } from '../../../../application/identity/check-token-gate.use-case.js';
import { tokenGateBody, tokenGateQuery } from '../schemas/wallet-sign-in.schema.js';
import { presentTokenGateCheck, presentTokenGateStatus } from '../presenters/token-gate-presenters.js';
import type { RouteEdge } from './route-context.js';
import { tokenGateCheckResponse, tokenGateStatusResponse } from '../schemas/identity.responses.js';

export interface TokenGatingRouteDeps {
  checkTokenGate: CheckTokenGate;
}

/** Does a wallet hold enough of the gating token on Base? Public; read on chain. */
export const tokenGatingRoutes: FastifyPluginAsyncZod<RouteEdge & TokenGatingRouteDeps> = async (app, ctx) => {
  const { checkTokenGate } = ctx;
  const perIp = { rateLimit: { max: ctx.authRateLimit, timeWindow: '1 minute' } };

  app.post('/api/auth/token-gating/verify', { schema: { body: tokenGateBody, response: { 200: tokenGateCheckResponse } }, config: { ...perIp, auth: 'none' } }, async (req) => {
    const result = await checkTokenGate.execute(req.body.address);
    return presentTokenGateCheck(result, req.body.fid, new Date());
  });

  app.get('/api/auth/token-gating/verify', { schema: { querystring: tokenGateQuery, response: { 200: tokenGateStatusResponse } }, config: { ...perIp, auth: 'none' } }, async (req) =>
    presentTokenGateStatus(await checkTokenGate.execute(req.query.address)),
  );
};
