import { SIGN_IN_METHODS, type SignInMethods } from '../application/ports/sign-in-methods.port.js';
import type { DependencyContainer } from 'tsyringe';
import { OpenIdOAuthClient } from '../adapters/outbound/oauth/openid-oauth-client.js';
import { CompleteOAuthSignIn } from '../application/accounts/complete-oauth-sign-in.use-case.js';
import { StartOAuthSignIn } from '../application/accounts/start-oauth-sign-in.use-case.js';
import { OAUTH_CLIENT } from '../application/ports/oauth-client.port.js';
import { isLoopbackHost, type Config } from './config.js';

/** OAuth sign-in (codehost, idp). A provider is offered only when both its client id and secret are set. */
export function registerOAuth(c: DependencyContainer, config: Config): void {
  c.register(SIGN_IN_METHODS, {
    useValue: {
      password: true,
      codehost: Boolean(config.CODEHOST_CLIENT_ID && config.CODEHOST_CLIENT_SECRET),
      idp: Boolean(config.IDP_CLIENT_ID && config.IDP_CLIENT_SECRET),
      wallet: true,
      social: Boolean(config.SOCIAL_JWKS_URL && config.SOCIAL_ISSUER && config.SOCIAL_AUDIENCE),
      emailDelivery: config.SMTP_URL ? 'smtp' : config.unsafeDefaults ? 'log' : 'none',
    } satisfies SignInMethods,
  });
  // Plain http only to a provider on this machine (tests, local stand-ins): tokens never cross a network in clear.
  const insecureOk = (...urls: string[]) => urls.every((u) => u.startsWith('https://') || isLoopbackHost(new URL(u).hostname));
  const codehostUrls = [config.CODEHOST_AUTHORIZATION_URL, config.CODEHOST_TOKEN_URL, config.CODEHOST_USERINFO_URL, config.CODEHOST_EMAILS_URL];
  c.register(OAUTH_CLIENT, {
    useValue: new OpenIdOAuthClient({
      codehost:
        config.CODEHOST_CLIENT_ID && config.CODEHOST_CLIENT_SECRET
          ? {
              clientId: config.CODEHOST_CLIENT_ID,
              clientSecret: config.CODEHOST_CLIENT_SECRET,
              scope: config.CODEHOST_SCOPE,
              allowInsecure: insecureOk(...codehostUrls),
              authorizationUrl: config.CODEHOST_AUTHORIZATION_URL,
              tokenUrl: config.CODEHOST_TOKEN_URL,
              userinfoUrl: config.CODEHOST_USERINFO_URL,
              emailsUrl: config.CODEHOST_EMAILS_URL,
            }
          : null,
      idp:
        config.IDP_CLIENT_ID && config.IDP_CLIENT_SECRET
          ? {
              clientId: config.IDP_CLIENT_ID,
              clientSecret: config.IDP_CLIENT_SECRET,
              scope: config.IDP_SCOPE,
              allowInsecure: insecureOk(config.IDP_ISSUER_URL),
              issuerUrl: config.IDP_ISSUER_URL,
            }
          : null,
      timeoutMs: config.OAUTH_TIMEOUT_MS,
    }),
  });
  c.registerSingleton(StartOAuthSignIn);
  c.registerSingleton(CompleteOAuthSignIn);
}
