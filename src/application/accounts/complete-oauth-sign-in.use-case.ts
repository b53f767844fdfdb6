import { timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { EMAIL_VERIFICATION_TTL_MS, normalizeEmail, referralCodeFrom, SESSION_TTL_MS } from '../../domain/accounts/account-rules.js';
import {
  decideOAuthLink,
  OAuthAccountNotLinkableError,
  OAuthEmailRequiredError,
  OAuthNotConfiguredError,
  OAuthStateInvalidError,
  type OAuthProfile,
  type OAuthProvider,
} from '../../domain/accounts/oauth.js';
import type { UserId } from '../../domain/shared/ids.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { OAUTH_CLIENT, type OAuthClient } from '../ports/oauth-client.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';
import { AccountMail } from './account-mail.js';
import { refuseReservedEmail } from './reserved-email.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import type { OutgoingMail } from '../ports/mailer.port.js';
import type { SignInResult } from './sign-in.use-case.js';

export interface OAuthCallback {
  provider: OAuthProvider;
  /** The URL the provider sent the browser back to (APP_URL + path + query). */
  callbackUrl: URL;
  /** The state this browser was given when the flow started (its cookie); undefined when absent. */
  browserState: string | undefined;
}

type Scope = Pick<AccountsSystemScope, 'emailVerifications' | 'oauthFlows' | 'oauthIdentities' | 'outbox' | 'sessions' | 'users' | 'mailOutbox' | 'jobs'>;

/**
 * Finishes an OAuth sign-in. The flow is spent before the provider is called, so a replayed
 * callback (same state, same code) is refused whatever the provider would say; the provider is
 * called outside any transaction; who signs in is decided by decideOAuthLink; the account, the
 * link and the session then commit together.
 */
@injectable()
export class CompleteOAuthSignIn {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'emailVerifications' | 'oauthFlows' | 'oauthIdentities' | 'outbox' | 'sessions' | 'users' | 'mailOutbox' | 'jobs'>,
    @inject(OAUTH_CLIENT) private readonly oauth: OAuthClient,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AccountMail) private readonly mail: AccountMail,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(input: OAuthCallback): Promise<SignInResult> {
    const { provider } = input;
    if (!this.oauth.isConfigured(provider)) throw new OAuthNotConfiguredError(provider);
    const state = input.callbackUrl.searchParams.get('state');
    // The state must be the one this browser started: a callback link planted by someone else fails here.
    if (!state || !input.browserState || !sameText(state, input.browserState)) throw new OAuthStateInvalidError();
    const flow = await this.uow.asSystem((s) => s.oauthFlows.consume(sha256(state), provider, this.clock.now()));
    if (!flow) throw new OAuthStateInvalidError();

    const profile = await this.oauth.finish(provider, input.callbackUrl, { state, codeVerifier: flow.codeVerifier, nonce: flow.nonce });
    const email = profile.email ? normalizeEmail(profile.email) : null;
    // A provider's address in the wallet domain would create, or link to, a wallet's account by e-mail.
    if (email) refuseReservedEmail(email, this.settings.appUrl);
    // A new account whose address the provider did not vouch for gets the usual verification mail,
    // written with the account; the sign-in never waits for the relay.
    const { result, mail } = await this.uow.asSystem((s) => this.signIn(s, provider, { ...profile, email }));
    this.mail.committed(mail);
    return result;
  }

  private async signIn(s: Scope, provider: OAuthProvider, profile: OAuthProfile): Promise<{ result: SignInResult; mail: OutgoingMail | null }> {
    const linked = await s.oauthIdentities.findUserId(provider, profile.subject);
    const existing = !linked && profile.email ? await s.users.findByEmail(profile.email) : null;
    const decision = decideOAuthLink(profile, linked, existing);

    const claim = { email: profile.email, verified: profile.emailVerified };
    let verifyToken: string | null = null;
    let userId: UserId;
    switch (decision.kind) {
      case 'refuse':
        if (decision.reason === 'no-email') throw new OAuthEmailRequiredError(provider);
        throw new OAuthAccountNotLinkableError(decision.reason);
      case 'sign-in':
        userId = decision.userId;
        await s.oauthIdentities.touch(provider, profile.subject, claim);
        break;
      case 'link':
        userId = await s.oauthIdentities.link(provider, profile.subject, decision.userId, claim);
        break;
      case 'create': {
        const email = profile.email!;
        const created = await s.users.insert({
          email,
          name: profile.name?.trim() || email,
          passwordHash: null,
          emailVerified: decision.emailVerified,
          referralCode: referralCodeFrom(this.ids.bytes(10)),
          referredBy: null,
          credits: 0,
        });
        if (!decision.emailVerified) {
          verifyToken = newSecretToken(this.ids);
          await s.emailVerifications.issue(sha256(verifyToken), created.id, new Date(this.clock.now().getTime() + EMAIL_VERIFICATION_TTL_MS), { email });
        }
        await s.outbox.add('user.created', created.id, { id: created.id, email: created.email, name: created.name, createdAt: created.createdAt.toISOString() });
        userId = await s.oauthIdentities.link(provider, profile.subject, created.id, claim);
        break;
      }
    }

    const user = await s.users.findById(userId);
    if (!user) throw new OAuthStateInvalidError(); // the account was deleted mid-flight: start again
    const token = newSecretToken(this.ids);
    const expiresAt = new Date(this.clock.now().getTime() + SESSION_TTL_MS);
    const session = await s.sessions.create(user.id, sha256(token), expiresAt);
    const mail = verifyToken ? await this.mail.stageVerification(s, user, verifyToken) : null;
    return { result: { user, sessionToken: token, sessionId: session.id, expiresAt }, mail };
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
