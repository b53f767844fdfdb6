import * as client from 'openid-client';
import { OAuthRejectedError, type OAuthProfile, type OAuthProvider } from '../../../domain/accounts/oauth.js';
import { UpstreamUnavailableError } from '../../../application/errors.js';
import type { OAuthClient, OAuthFlowSecrets } from '../../../application/ports/oauth-client.port.js';

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  scope: string;
  /** Plain http to the provider: allowed by the composition root only for a loopback provider. */
  allowInsecure: boolean;
}

/** codehost: plain OAuth 2 (no discovery, no ID token); who signed in is read from its APIs. */
export interface CodehostSettings extends ClientCredentials {
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  emailsUrl: string;
}

/** idp: OpenID Connect, its endpoints and keys found by discovery at the issuer. */
export interface IdpSettings extends ClientCredentials {
  issuerUrl: string;
}

export interface OAuthClientSettings {
  codehost: CodehostSettings | null;
  idp: IdpSettings | null;
  timeoutMs: number;
}

/** The OAuth protocol through openid-client: authorization code, PKCE S256, state, and for OpenID Connect the nonce. */
export class OpenIdOAuthClient implements OAuthClient {
  private idpConfig: Promise<client.Configuration> | null = null;
  private codehostConfig: client.Configuration | null = null;

  constructor(private readonly settings: OAuthClientSettings) {}

  isConfigured(provider: OAuthProvider): boolean {
    return this.settings[provider] !== null;
  }

  async begin(provider: OAuthProvider, redirectUri: string): Promise<{ authorizationUrl: string; secrets: OAuthFlowSecrets }> {
    const config = await this.configuration(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = provider === 'idp' ? client.randomNonce() : null;
    const params: Record<string, string> = {
      redirect_uri: redirectUri,
      scope: this.settings[provider]!.scope,
      state,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    };
    if (nonce) params['nonce'] = nonce;
    return { authorizationUrl: client.buildAuthorizationUrl(config, params).href, secrets: { state, codeVerifier, nonce } };
  }

  async finish(provider: OAuthProvider, callbackUrl: URL, secrets: OAuthFlowSecrets): Promise<OAuthProfile> {
    const config = await this.configuration(provider);
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
        ...(secrets.nonce ? { expectedNonce: secrets.nonce } : {}),
        idTokenExpected: provider === 'idp',
      });
      return provider === 'idp' ? await this.idpProfile(config, tokens) : await this.codehostProfile(config, tokens.access_token);
    } catch (err) {
      throw toDomainError(provider, err);
    }
  }

  /** The ID token's claims; the userinfo endpoint only when the token carries no e-mail. */
  private async idpProfile(config: client.Configuration, tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): Promise<OAuthProfile> {
    const claims = tokens.claims()!;
    let source: Record<string, unknown> = claims;
    if (typeof claims['email'] !== 'string') source = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)) };
    return {
      subject: claims.sub,
      email: typeof source['email'] === 'string' ? source['email'] : null,
      emailVerified: source['email_verified'] === true || source['email_verified'] === 'true',
      name: typeof source['name'] === 'string' ? source['name'] : null,
    };
  }

  /**
   * The host's profile (`sub` or `id`, `email`, `name` or `login`). A host that says whether the
   * address is verified (`email_verified`) is believed; one that does not (GitHub-style) is asked
   * for its list of addresses, and the primary one is used with its own `verified` flag.
   */
  private async codehostProfile(config: client.Configuration, accessToken: string): Promise<OAuthProfile> {
    const s = this.settings.codehost!;
    const user = asObject(await this.readJson(config, accessToken, s.userinfoUrl));
    const id = user['sub'] ?? user['id'];
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') throw new OAuthRejectedError('codehost', 'the profile has no id');
    const name = [user['name'], user['login']].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? null;
    let email = typeof user['email'] === 'string' ? user['email'] : null;
    let emailVerified = user['email_verified'] === true;
    if (typeof user['email_verified'] !== 'boolean') {
      const list = await this.readJson(config, accessToken, s.emailsUrl);
      const entries = Array.isArray(list) ? list.map(asObject) : [];
      const primary = entries.find((e) => e['primary'] === true && typeof e['email'] === 'string');
      email = primary ? (primary['email'] as string) : email;
      emailVerified = primary?.['verified'] === true;
    }
    return { subject: String(id), email, emailVerified, name };
  }

  private async readJson(config: client.Configuration, accessToken: string, url: string): Promise<unknown> {
    const res = await client.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, new Headers({ accept: 'application/json' }));
    if (res.status >= 500) throw new UpstreamUnavailableError('codehost', `codehost answered ${res.status}`);
    if (!res.ok) throw new OAuthRejectedError('codehost', `its API answered ${res.status}`);
    try {
      return await res.json();
    } catch {
      throw new UpstreamUnavailableError('codehost', 'codehost answered something that is not JSON');
    }
  }

  private async configuration(provider: OAuthProvider): Promise<client.Configuration> {
    if (provider === 'codehost') return (this.codehostConfig ??= this.codehostConfiguration());
    // One discovery per process; a failed one is forgotten so the next sign-in tries again.
    this.idpConfig ??= this.discoverIdp().catch((err: unknown) => {
      this.idpConfig = null;
      throw err;
    });
    return this.idpConfig;
  }

  private codehostConfiguration(): client.Configuration {
    const s = this.settings.codehost!;
    // No discovery and no issuer of its own: the authorization endpoint's origin stands for it
    // (only ever compared if the host adds an ID token anyway).
    const config = new client.Configuration(
      { issuer: new URL(s.authorizationUrl).origin, authorization_endpoint: s.authorizationUrl, token_endpoint: s.tokenUrl },
      s.clientId,
      s.clientSecret,
    );
    return this.tune(config, s.allowInsecure);
  }

  private async discoverIdp(): Promise<client.Configuration> {
    const s = this.settings.idp!;
    try {
      const config = await client.discovery(new URL(s.issuerUrl), s.clientId, s.clientSecret, undefined, {
        timeout: this.timeoutSeconds(),
        ...(s.allowInsecure ? { execute: [client.allowInsecureRequests] } : {}),
      });
      return this.tune(config, s.allowInsecure);
    } catch (err) {
      throw new UpstreamUnavailableError('idp', 'the identity provider could not be reached', err);
    }
  }

  private tune(config: client.Configuration, allowInsecure: boolean): client.Configuration {
    config.timeout = this.timeoutSeconds();
    if (allowInsecure) client.allowInsecureRequests(config);
    return config;
  }

  private timeoutSeconds(): number {
    return Math.max(1, Math.ceil(this.settings.timeoutMs / 1000));
  }
}

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * The provider refused or its answer did not check out → OAuthRejectedError (no session, the
 * person may try again); the provider could not be reached or failed on its side → 502.
 */
function toDomainError(provider: OAuthProvider, err: unknown): Error {
  if (err instanceof OAuthRejectedError || err instanceof UpstreamUnavailableError) return err;
  if (err instanceof client.AuthorizationResponseError) return new OAuthRejectedError(provider, err.error);
  if (err instanceof client.ResponseBodyError) {
    return err.status >= 500 ? new UpstreamUnavailableError(provider, `${provider} answered ${err.status}`, err) : new OAuthRejectedError(provider, err.error);
  }
  if (unreachable(err)) return new UpstreamUnavailableError(provider, `${provider} could not be reached`, err);
  return new OAuthRejectedError(provider, 'its answer did not check out');
}

/** A network failure, a timeout, or a 5xx anywhere in the cause chain. */
function unreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof Response) return e.status >= 500;
    if (!(e instanceof Error)) continue;
    if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
    if (e instanceof TypeError && /fetch failed/i.test(e.message)) return true;
    if ('code' in e && typeof e.code === 'string' && /^(ECONN|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|UND_ERR)/.test(e.code)) return true;
  }
  return false;
}
