import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { referralCodeFrom, SESSION_TTL_MS } from '../../domain/accounts/account-rules.js';
import { EmailInUseError } from '../../domain/accounts/accounts.errors.js';
import type { User } from '../../domain/accounts/user.js';
import { WalletEmailTakenError, WalletSignInRejectedError } from '../../domain/identity/identity.errors.js';
import { checkSiweClaims, requireSiweFields, walletEmail, type SiweMessage } from '../../domain/identity/siwe-rules.js';
import type { SignInResult } from '../accounts/sign-in.use-case.js';
import { AUTH_SETTINGS, type AuthSettings } from '../auth/auth-settings.js';
import { InvalidInputError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { SIWE_VERIFIER, type SiweVerifier } from '../ports/siwe-verifier.port.js';
import { UNIT_OF_WORK, type SystemScope, type SystemWork } from '../ports/unit-of-work.port.js';
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
 * 5. the account: the wallet's own, else the one with the wallet-derived e-mail, else a new one.
 */
@injectable()
export class SignInWithWallet {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<'walletNonces' | 'walletIdentities' | 'users' | 'outbox' | 'sessions'>,
    @inject(SIWE_VERIFIER) private readonly siwe: SiweVerifier,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
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
    const token = newSecretToken();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    const session = await this.uow.asSystem((s) => s.sessions.create(user.id, sha256(token), expiresAt));
    return { user, sessionToken: token, sessionId: session.id, expiresAt, redirectTo };
  }

  /** Two first sign-ins of one wallet at once: the loser of the insert finds the winner's account. */
  private async accountOf(m: SiweMessage, appHostname: string): Promise<User> {
    try {
      return await this.uow.asSystem((s) => this.findOrCreate(s, m, appHostname));
    } catch (err) {
      if (!(err instanceof EmailInUseError)) throw err;
      return this.uow.asSystem((s) => this.findOrCreate(s, m, appHostname));
    }
  }

  private async findOrCreate(s: Pick<SystemScope, 'walletIdentities' | 'users' | 'outbox'>, m: SiweMessage, appHostname: string): Promise<User> {
    // The e-mail first: a concurrent first sign-in commits its user and identity together, and each
    // statement sees what was committed before it began, so an e-mail seen here has its identity seen below.
    const email = walletEmail(m.address, appHostname);
    const existing = await s.users.findByEmail(email);
    const known = await s.walletIdentities.findUserId(m.address);
    const knownUser = known ? await s.users.findById(known) : null;
    if (knownUser) {
      await s.walletIdentities.touch(m.address);
      return knownUser;
    }
    if (existing) {
      // Someone registered this address's e-mail with a password: linking would sign the wallet
      // into an account a stranger controls. Only a verified owner of the e-mail is linked.
      if (!existing.emailVerified) throw new WalletEmailTakenError();
      const { passwordHash: _, ...user } = existing;
      await s.walletIdentities.link(m.address, user.id, m.chainId);
      return user;
    }
    const created = await s.users.insert({
      email,
      name: m.address,
      passwordHash: null,
      referralCode: referralCodeFrom(randomBytes(10)),
      referredBy: null,
      credits: 0,
    });
    await s.walletIdentities.link(m.address, created.id, m.chainId);
    await s.outbox.add('user.created', created.id, { id: created.id, email: created.email, name: created.name, createdAt: created.createdAt.toISOString() });
    return created;
  }
}

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
