import { inject, injectable } from 'tsyringe';
import { OAUTH_FLOW_TTL_MS, OAuthNotConfiguredError, type OAuthProvider } from '../../domain/accounts/oauth.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { OAUTH_CLIENT, type OAuthClient } from '../ports/oauth-client.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { sha256 } from '../shared/secret-tokens.js';

/** Where the provider sends the browser back: APP_URL's callback for that provider (CONTRACT.md section 2). */
export const oauthRedirectUri = (appUrl: string, provider: OAuthProvider): string => `${appUrl}/api/auth/callback/${provider}`;

/**
 * Starts an OAuth sign-in: the verifier and nonce stay in the database under the state's hash,
 * the state goes to this browser only (its cookie) and to the provider (the URL).
 */
@injectable()
export class StartOAuthSignIn {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'oauthFlows'>,
    @inject(OAUTH_CLIENT) private readonly oauth: OAuthClient,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
  ) {}

  async execute(provider: OAuthProvider): Promise<{ authorizationUrl: string; state: string; expiresAt: Date }> {
    if (!this.oauth.isConfigured(provider)) throw new OAuthNotConfiguredError(provider);
    const { authorizationUrl, secrets } = await this.oauth.begin(provider, oauthRedirectUri(this.settings.appUrl, provider));
    const expiresAt = new Date(this.clock.now().getTime() + OAUTH_FLOW_TTL_MS);
    await this.uow.asSystem((s) =>
      s.oauthFlows.create({ stateHash: sha256(secrets.state), provider, codeVerifier: secrets.codeVerifier, nonce: secrets.nonce, expiresAt }),
    );
    return { authorizationUrl, state: secrets.state, expiresAt };
  }
}
