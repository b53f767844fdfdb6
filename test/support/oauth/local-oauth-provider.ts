import { createServer } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';
import { cleanUpLater } from '../cleanup.js';

/** Who the provider says signed in; the next tokens and userinfo answers carry it. */
export interface ProviderPerson {
  sub: string;
  email?: string | null;
  email_verified?: boolean;
  name?: string;
}

export interface LocalOAuthProvider {
  server: OAuth2Server;
  issuerUrl: string;
  /** The person the provider signs in next (ID token claims and userinfo alike). */
  person: ProviderPerson;
  /**
   * Replaces the userinfo body (a GitHub-style profile without `email_verified`), and serves
   * `/emails` as such a host's list of addresses; null goes back to the OpenID userinfo shape.
   */
  codehostStyle: { user: Record<string, unknown>; emails: { email: string; primary: boolean; verified: boolean }[] } | null;
  /** The environment pointing both codehost and idp at this provider. */
  env: Record<string, string>;
}

/**
 * A real OpenID provider (oauth2-mock-server) on a free loopback port: discovery, authorize with
 * PKCE and nonce, token, userinfo, JWKS. Stopped when the test (or file) that started it ends.
 */
export async function startLocalOAuthProvider(): Promise<LocalOAuthProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  cleanUpLater(() => server.stop());
  const issuerUrl = server.issuer.url!;
  const p: LocalOAuthProvider = {
    server,
    issuerUrl,
    person: { sub: 'nobody' },
    codehostStyle: null,
    env: {
      CODEHOST_CLIENT_ID: 'codehost-client',
      CODEHOST_CLIENT_SECRET: 'codehost-secret',
      CODEHOST_AUTHORIZATION_URL: `${issuerUrl}/authorize`,
      CODEHOST_TOKEN_URL: `${issuerUrl}/token`,
      CODEHOST_USERINFO_URL: `${issuerUrl}/userinfo`,
      CODEHOST_EMAILS_URL: `${issuerUrl}/emails`,
      IDP_CLIENT_ID: 'idp-client',
      IDP_CLIENT_SECRET: 'idp-secret',
      IDP_ISSUER_URL: issuerUrl,
    },
  };
  const claims = () => {
    const { sub, email, email_verified, name } = p.person;
    return { sub, ...(email === undefined ? {} : { email }), ...(email_verified === undefined ? {} : { email_verified }), ...(name ? { name } : {}) };
  };
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, claims()));
  server.service.on('beforeUserinfo', (res: { body: unknown }) => {
    res.body = p.codehostStyle ? p.codehostStyle.user : claims();
  });
  // GitHub's GET /user/emails, for a host whose profile does not say whether the address is verified.
  (server.service.requestHandler as unknown as { get: (path: string, h: (req: unknown, res: { json: (b: unknown) => void }) => void) => void }).get(
    '/emails',
    (_req, res) => res.json(p.codehostStyle?.emails ?? []),
  );
  return p;
}

/** A loopback URL nothing listens on: a provider that is down. */
export async function deadUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
