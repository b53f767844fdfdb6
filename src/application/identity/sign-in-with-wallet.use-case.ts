import { inject, injectable } from 'tsyringe';
import { referralCodeFrom, SESSION_TTL_MS } from '../../domain/accounts/account-rules.js';
import { EmailInUseError } from '../../domain/accounts/accounts.errors.js';
import type { User } from '../../domain/accounts/user.js';
import { WalletSignInRejectedError } from '../../domain/identity/identity.errors.js';
import { checkSiweClaims, requireSiweFields, walletEmail, type SiweMessage } from '../../domain/identity/siwe-rules.js';
import type { SignInResult } from '../accounts/sign-in.use-case.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { InvalidInputError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { SIWE_VERIFIER, type SiweVerifier } from '../ports/siwe-verifier.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';

export interface WalletSignInInput {
  message: string;
  signature: `0x${string}`;
  /** Where to send the browser afterwards: a path or an absolute URL on APP_URL's origin. */
  callbackUrl?: string | undefined;
}

/**
 * POST /api/auth/callback/wallet (SIWE). Order matters:
 * 1. the message must parse (400, the nonce untouched: we could not even read it);
 * 2. its nonce is consumed at once, before anything else is judged, so a nonce named by any
 *    attempt (even one refused later) never works again: replaying a captured message is useless;
 * 3. domain, chain and validity window (401);
 * 4. the signature, through the chain when the account is a contract (401, 502 when the node fails);
 * 5. the account: the wallet's own (by address), else a verified one with the wallet-derived e-mail,
 *    else a new one; an unverified account holding that e-mail never blocks nor receives the sign-in.
 */
@injectable()
export class SignInWithWallet {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'walletNonces' | 'walletIdentities' | 'users' | 'outbox' | 'sessions'>,
    @inject(SIWE_VERIFIER) private readonly siwe: SiweVerifier,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(input: WalletSignInInput): Promise<SignInResult & { redirectTo: string }> {
    const app = new URL(this.settings.appUrl);
    const redirectTo = sameOriginTarget(app, input.callbackUrl);
    const m = requireSiweFields(this.siwe.parse(input.message));

    const now = this.clock.now();
    const fresh = await this.uow.asSystem((s) => s.walletNonces.consume(sha256(m.nonce), now));
    if (!fresh) throw new WalletSignInRejectedError('nonce', 'The nonce is unknown, expired or already used; ask GET /api/auth/nonce for a new one');
    checkSiweClaims(m, { domain: app.host, now });

    const signed = await this.siwe.isSignedBy({ message: input.message, signature: input.signature, address: m.address as `0x${string}` });
    if (!signed) throw new WalletSignInRejectedError('signature', 'The signature is not by the message\'s address');

    const user = await this.accountOf(m, app.hostname);
    const token = newSecretToken(this.ids);
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    const session = await this.uow.asSystem((s) => s.sessions.create(user.id, sha256(token), expiresAt));
    return { user, sessionToken: token, sessionId: session.id, expiresAt, redirectTo };
  }

  /**
   * The account is found by the wallet's address; e-mails only name it. Retried when a first
   * sign-in loses a race: to a concurrent first sign-in of the same wallet (its e-mail or its
   * identity row committed first: the next attempt finds the identity), or to an unverified row
   * holding the derived e-mail (the next attempt takes a suffixed one).
   */
  private async accountOf(m: SiweMessage, appHostname: string): Promise<User> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.uow.asSystem((s) => this.findOrCreate(s, m, appHostname, attempt));
      } catch (err) {
        if (!(err instanceof EmailInUseError || err instanceof WalletLinkRaceLost) || attempt + 1 >= ATTEMPTS) throw err;
      }
    }
  }

  private async findOrCreate(s: Pick<AccountsSystemScope, 'walletIdentities' | 'users' | 'outbox'>, m: SiweMessage, appHostname: string, attempt: number): Promise<User> {
    // The e-mail first: a concurrent first sign-in commits its user and identity together, and each
    // statement sees what was committed before it began, so an e-mail seen here has its identity seen below.
    const plain = walletEmail(m.address, appHostname);
    const existing = await s.users.findByEmail(plain);
    const known = await s.walletIdentities.findUserId(m.address);
    const knownUser = known ? await s.users.findById(known) : null;
    if (knownUser) {
      await s.walletIdentities.touch(m.address);
      return knownUser;
    }
    if (existing?.emailVerified) {
      // A verified owner of the derived e-mail (spec: sign-in links to the account with the same
      // e-mail). Only verified: an unverified holder is someone who typed the address, and linking
      // would sign the wallet into an account a stranger controls.
      const { passwordHash: _, ...user } = existing;
      await s.walletIdentities.link(m.address, user.id, m.chainId);
      return user;
    }
    // Nobody, or an unverified holder (a row from before the domain was reserved): the wallet's own
    // account, with a suffixed e-mail when the plain one is held, so that holder never blocks it.
    const email = existing || attempt > 0 ? walletEmail(m.address, appHostname, this.ids.bytes(4).toString('hex')) : plain;
    const created = await s.users.insert({
      email,
      name: m.address,
      passwordHash: null,
      referralCode: referralCodeFrom(this.ids.bytes(10)),
      referredBy: null,
      credits: 0,
    });
    // Two first sign-ins that both took a suffixed e-mail: the identity's primary key lets one win;
    // the loser rolls its user back and finds the winner's account at the next attempt.
    if ((await s.walletIdentities.link(m.address, created.id, m.chainId)) !== created.id) throw new WalletLinkRaceLost();
    await s.outbox.add('user.created', created.id, { id: created.id, email: created.email, name: created.name, createdAt: created.createdAt.toISOString() });
    return created;
  }
}

/** First sign-ins race (see accountOf): at most this many tries, enough for a lost e-mail then a lost link. */
const ATTEMPTS = 4;

/** This attempt's new user lost the wallet's identity to a concurrent first sign-in: roll it back, look again. */
class WalletLinkRaceLost extends Error {}

/** Only our own origin: anything else would make sign-in an open redirect. */
function sameOriginTarget(app: URL, callbackUrl: string | undefined): string {
  if (callbackUrl === undefined || callbackUrl === '') return app.href;
  let target: URL;
  try {
    target = new URL(callbackUrl, app);
  } catch {
    throw new InvalidInputError('VALIDATION_ERROR', 'callbackUrl is not a URL', { field: 'callbackUrl', details: [{ path: 'body/callbackUrl', message: 'is not a URL' }] });
  }
  if (target.origin !== app.origin) throw new InvalidInputError('VALIDATION_ERROR', 'callbackUrl must be on this site', { field: 'callbackUrl', details: [{ path: 'body/callbackUrl', message: 'must be on this site' }] });
  return target.href;
}
