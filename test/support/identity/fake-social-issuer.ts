import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { cleanUpLater } from '../cleanup.js';

export const SOCIAL_ISSUER = 'https://auth.social.test';
export const SOCIAL_AUDIENCE = '127.0.0.1:3000';

export interface TokenOptions {
  /** The fid as `sub`; a string is sent as is (for malformed subjects). */
  sub?: number | string | null;
  iss?: string;
  aud?: string;
  /** Seconds from now; negative for an expired token; null for no `exp` claim. */
  expiresIn?: number | null;
  /** Sign with a key the JWKS does not publish (under a kid it does not know, or under `kid`). */
  stranger?: boolean;
  kid?: string;
  /** Sign with the published Ed25519 key instead of the ES256 one. */
  eddsa?: boolean;
}

export interface SocialIssuer {
  env: { SOCIAL_JWKS_URL: string; SOCIAL_ISSUER: string; SOCIAL_AUDIENCE: string };
  token(opts?: TokenOptions): Promise<string>;
  /** How many times the JWKS was fetched. */
  fetches(): number;
  close(): Promise<void>;
}

/**
 * A social identity provider as the service meets it: its JWKS served over HTTP (an ES256 and an
 * Ed25519 key), and tokens signed the way such a provider signs them. Closed after the file.
 */
export async function startSocialIssuer(): Promise<SocialIssuer> {
  const es = await generateKeyPair('ES256', { extractable: true });
  const ed = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const stranger = await generateKeyPair('ES256');
  const jwks = {
    keys: [
      { ...(await exportJWK(es.publicKey)), kid: 'es-1', alg: 'ES256', use: 'sig' },
      { ...(await exportJWK(ed.publicKey)), kid: 'ed-1', alg: 'EdDSA', use: 'sig' },
    ],
  };
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  cleanUpLater(close);

  return {
    env: { SOCIAL_JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`, SOCIAL_ISSUER, SOCIAL_AUDIENCE },
    fetches: () => fetches,
    close,
    async token(opts = {}) {
      const [key, alg, kid]: [CryptoKey, string, string] = opts.stranger
        ? [stranger.privateKey, 'ES256', opts.kid ?? 'unknown-1']
        : opts.eddsa
          ? [ed.privateKey, 'EdDSA', opts.kid ?? 'ed-1']
          : [es.privateKey, 'ES256', opts.kid ?? 'es-1'];
      const payload: JWTPayload = {};
      const sub = opts.sub === undefined ? 1 + Math.floor(Math.random() * 1e9) : opts.sub;
      let jwt = new SignJWT(payload)
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setIssuer(opts.iss ?? SOCIAL_ISSUER)
        .setAudience(opts.aud ?? SOCIAL_AUDIENCE)
        .setIssuedAt();
      if (sub !== null) jwt = jwt.setSubject(String(sub));
      const expiresIn = opts.expiresIn === undefined ? 600 : opts.expiresIn;
      if (expiresIn !== null) jwt = jwt.setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn);
      return jwt.sign(key);
    },
  };
}

/** An unsecured token (`alg: none`) with otherwise valid claims. */
export function unsecuredToken(claims: { sub: string; iss?: string; aud?: string }): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: claims.iss ?? SOCIAL_ISSUER, aud: claims.aud ?? SOCIAL_AUDIENCE, sub: claims.sub, iat: now, exp: now + 600 })}.`;
}
