import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IssueWalletNonce } from '../../../../application/identity/issue-wallet-nonce.use-case.js';
import type { SignInWithWallet } from '../../../../application/identity/sign-in-with-wallet.use-case.js';
import { walletCallbackBody } from '../schemas/wallet-sign-in.schema.js';
import type { RouteEdge } from './route-context.js';
import { nonceResponse, walletSignedInResponse } from '../schemas/identity.responses.js';

export interface WalletSignInRouteDeps {
  issueWalletNonce: IssueWalletNonce;
  signInWithWallet: SignInWithWallet;
}

/** Sign-in with Ethereum (EIP-4361) on Base: a nonce, then the signed message. */
export const walletSignInRoutes: FastifyPluginAsyncZod<RouteEdge & WalletSignInRouteDeps> = async (app, ctx) => {
  const { issueWalletNonce, signInWithWallet, cookies, csrf } = ctx;
  const perIp = { rateLimit: { max: ctx.authRateLimit, timeWindow: '1 minute' } };

  app.get('/api/auth/nonce', { schema: { response: { 200: nonceResponse } }, config: { ...perIp, auth: 'none' } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return issueWalletNonce.execute();
  });

  // 303: the browser follows with a GET; the body says the same for clients that do not follow.
  app.post('/api/auth/callback/wallet', { schema: { body: walletCallbackBody, response: { 303: walletSignedInResponse } }, config: { ...perIp, auth: 'none' } }, async (req, reply) => {
    const result = await signInWithWallet.execute(req.body);
    cookies.setSession(reply, result.sessionToken, result.expiresAt);
    cookies.setCsrf(reply, csrf.forSession(result.sessionId));
    return reply
      .status(303)
      .header('location', result.redirectTo)
      .send({ user: { id: result.user.id, email: result.user.email, name: result.user.name }, url: result.redirectTo });
  });
};
