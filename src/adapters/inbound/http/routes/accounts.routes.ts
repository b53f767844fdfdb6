import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RegisterUser } from '../../../../application/accounts/register-user.use-case.js';
import type { RequestPasswordReset } from '../../../../application/accounts/request-password-reset.use-case.js';
import type { ResendVerification } from '../../../../application/accounts/resend-verification.use-case.js';
import type { ResetPassword } from '../../../../application/accounts/reset-password.use-case.js';
import type { SignIn } from '../../../../application/accounts/sign-in.use-case.js';
import type { SignOut } from '../../../../application/accounts/sign-out.use-case.js';
import type { VerifyEmail } from '../../../../application/accounts/verify-email.use-case.js';
import type { IssueToken } from '../../../../application/auth/issue-token.use-case.js';
import {
  credentialsBody,
  forgotPasswordBody,
  registerBody,
  resetPasswordBody,
  verifyEmailQuery,
} from '../schemas/accounts.schema.js';
import { resendVerificationBody } from '../schemas/webhooks.schema.js';
import type { RouteEdge } from './route-context.js';
import { csrfResponse, registeredResponse, sessionResponse, signedInResponse, tokenResponse, verifiedEmailResponse } from '../schemas/accounts.responses.js';
import { messageBody, successBody } from '../schemas/error.schema.js';

const RESEND_VERIFICATION_MESSAGE = 'If an account with an unverified address exists for that e-mail, a verification link has been sent.';
const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that e-mail, a reset link has been sent.';

export interface AccountRouteDeps {
  registerUser: RegisterUser;
  signIn: SignIn;
  signOut: SignOut;
  verifyEmail: VerifyEmail;
  requestPasswordReset: RequestPasswordReset;
  resendVerification: ResendVerification;
  resetPassword: ResetPassword;
  issueToken: IssueToken;
}

/** Sign-up, sign-in and the credential flows around them. */
export const accountRoutes: FastifyPluginAsyncZod<RouteEdge & AccountRouteDeps> = async (app, ctx) => {
  const { registerUser, signIn, signOut, verifyEmail, requestPasswordReset, resendVerification, resetPassword, issueToken, cookies, csrf } = ctx;
  const perIp = { rateLimit: { max: ctx.authRateLimit, timeWindow: '1 minute' } };
  const botToken = (header: unknown, body?: string) => body ?? (typeof header === 'string' ? header : undefined);

  app.post('/api/register', { schema: { body: registerBody, response: { 201: registeredResponse } }, config: { ...perIp, auth: 'none' } }, async (req, reply) => {
    const { turnstileToken, ...input } = req.body;
    const user = await registerUser.execute({ ...input, botToken: botToken(req.headers['cf-turnstile-response'], turnstileToken), ip: req.ip });
    return reply.status(201).send({ id: user.id, email: user.email, name: user.name });
  });

  app.post('/api/auth/callback/credentials', { schema: { body: credentialsBody, response: { 200: signedInResponse } }, config: { ...perIp, auth: 'none' } }, async (req, reply) => {
    const result = await signIn.execute(req.body);
    cookies.setSession(reply, result.sessionToken, result.expiresAt);
    cookies.setCsrf(reply, csrf.forSession(result.sessionId));
    return { user: { id: result.user.id, email: result.user.email, name: result.user.name } };
  });

  app.post('/api/auth/signout', { schema: { response: { 200: successBody } }, config: { auth: 'optional' } }, async (req, reply) => {
    if (req.actor) await signOut.execute(req.actor);
    cookies.clear(reply);
    return { success: true };
  });

  app.get('/api/auth/session', { schema: { response: { 200: sessionResponse } }, config: { auth: 'optional' } }, async (req) => {
    const a = req.actor;
    return { user: a ? { id: a.userId, email: a.email, role: a.role } : null };
  });

  app.get('/api/auth/csrf', { schema: { response: { 200: csrfResponse } }, config: { auth: 'optional' } }, async (req, reply) => {
    const c = req.actor?.credential;
    const csrfToken = c?.kind === 'session' ? csrf.forSession(c.sessionId) : csrf.anonymous();
    cookies.setCsrf(reply, csrfToken);
    return { csrfToken };
  });

  app.get('/api/auth/verify-email', { schema: { querystring: verifyEmailQuery, response: { 200: verifiedEmailResponse } }, config: { auth: 'none' } }, async (req) => {
    await verifyEmail.execute(req.query.token);
    return { success: true, message: 'E-mail address verified.' };
  });

  app.post('/api/auth/forgot-password', { schema: { body: forgotPasswordBody, response: { 200: messageBody } }, config: { ...perIp, auth: 'none' } }, async (req) => {
    // the mail is only written here (the outbox and its job): the answer never waits for the relay
    await requestPasswordReset.execute({ email: req.body.email, botToken: botToken(req.headers['cf-turnstile-response'], req.body.turnstileToken), ip: req.ip });
    return { message: FORGOT_PASSWORD_MESSAGE };
  });

  // the same answer whether the account exists, is verified or not (CONTRACT.md 4 is silent; docs/decisions/0031-account-mail-through-outbox.md)
  app.post('/api/auth/resend-verification', { schema: { body: resendVerificationBody, response: { 200: messageBody } }, config: { ...perIp, auth: 'none' } }, async (req) => {
    await resendVerification.execute({ email: req.body.email });
    return { message: RESEND_VERIFICATION_MESSAGE };
  });
  app.post('/api/auth/reset-password', { schema: { body: resetPasswordBody, response: { 200: messageBody } }, config: { ...perIp, auth: 'none' } }, async (req) => {
    await resetPassword.execute(req.body);
    return { message: 'Your password has been reset. Sign in with the new password.' };
  });

  app.post('/api/auth/token', { schema: { response: { 200: tokenResponse } }, config: { auth: 'required' } }, async (req) => issueToken.execute(req.actor!));
};
