import { inject, injectable } from 'tsyringe';
import { referralCodeFrom } from '../../domain/accounts/account-rules.js';
import { EmailInUseError } from '../../domain/accounts/accounts.errors.js';
import { SOCIAL_REFRESH_TTL_MS, SOCIAL_SESSION_TTL_SECONDS, socialEmail } from '../../domain/identity/social-identity.js';
import type { UserId } from '../../domain/shared/ids.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { SOCIAL_IDENTITY_VERIFIER, type SocialIdentityVerifier } from '../ports/social-identity-verifier.port.js';
import { TOKEN_GATE, type TokenGate } from '../ports/token-gate.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { sha256 } from '../shared/secret-tokens.js';
import { FidAlreadyLinkedError, InsufficientTokenBalanceError, SocialTokenMissingError } from './social-identity.errors.js';
import { newSocialRefreshToken, newSocialSessionToken } from './social-tokens.js';

/** `token-holder` when the address passed a configured gate; `standard` otherwise. */
export type AccessLevel = 'token-holder' | 'standard';

export interface SocialSignIn {
  userId: UserId;
  fid: number;
  created: boolean;
  sessionToken: string;
  sessionId: string;
  expiresAt: Date;
  refreshToken: string;
  address: string | null;
  tokenGated: boolean;
  accessLevel: AccessLevel;
}

/** A first sign-in races another for the same fid, or finds its plain e-mail taken: at most this many tries. */
const ATTEMPTS = 3;

type Work = Pick<AccountsSystemScope, 'outbox' | 'sessions' | 'socialSessions' | 'users'>;

/**
 * Sign-in with a social identity token (spec "Decentralized social identity and token gating").
 * Order: the token (401, 502, 503), then the gate when an address is given (403, 502), and only
 * then the database: a refused sign-in changes nothing. The fid finds its user or creates one;
 * accounts are never linked by e-mail. The session is an ordinary session row (24 hours) with a
 * refresh-token family beside it.
 */
@injectable()
export class VerifySocialIdentity {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, keyof Work>,
    @inject(SOCIAL_IDENTITY_VERIFIER) private readonly verifier: SocialIdentityVerifier,
    @inject(TOKEN_GATE) private readonly gate: TokenGate,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(input: { fidToken?: string | undefined; address?: string | undefined }): Promise<SocialSignIn> {
    if (!input.fidToken) throw new SocialTokenMissingError();
    const { fid } = await this.verifier.verify(input.fidToken);
    const address = input.address ?? null;
    const verdict = address ? await this.gate.check(address) : null;
    if (verdict && !verdict.hasAccess) throw new InsufficientTokenBalanceError({ required: verdict.required, minBalance: verdict.minBalance });

    const now = this.clock.now().getTime();
    const sessionToken = newSocialSessionToken(this.ids);
    const refreshToken = newSocialRefreshToken(this.ids);
    const expiresAt = new Date(now + SOCIAL_SESSION_TTL_SECONDS * 1000);
    const refreshExpiresAt = new Date(now + SOCIAL_REFRESH_TTL_MS);

    for (let attempt = 0; ; attempt++) {
      try {
        const signedIn = await this.uow.asSystem(async (s) => {
          const { userId, created } = await this.findOrCreateUser(s, fid, attempt);
          const session = await s.sessions.create(userId, sha256(sessionToken), expiresAt);
          const familyId = await s.socialSessions.openFamily(userId, session.id);
          await s.socialSessions.issueRefreshToken(familyId, sha256(refreshToken), refreshExpiresAt);
          return { userId, created, sessionId: session.id };
        });
        const tokenGated = verdict !== null;
        return { ...signedIn, fid, sessionToken, expiresAt, refreshToken, address, tokenGated, accessLevel: tokenGated ? 'token-holder' : 'standard' };
      } catch (err) {
        const retry = err instanceof EmailInUseError || err instanceof FidAlreadyLinkedError;
        if (!retry || attempt + 1 >= ATTEMPTS) throw err;
      }
    }
  }

  private async findOrCreateUser(s: Work, fid: number, attempt: number): Promise<{ userId: UserId; created: boolean }> {
    const existing = await s.socialSessions.userByFid(fid);
    if (existing) return { userId: existing, created: false };
    // The plain address first; when another account holds it (a concurrent first sign-in of this
    // fid, which the retry then finds linked, or someone who registered it), a suffixed one.
    const email = socialEmail(fid, attempt === 0 ? undefined : this.ids.bytes(4).toString('hex'));
    const user = await s.users.insert({
      email,
      name: `fid ${fid}`,
      passwordHash: null,
      referralCode: referralCodeFrom(this.ids.bytes(10)),
      referredBy: null,
      credits: 0,
    });
    await s.socialSessions.link(fid, user.id);
    await s.outbox.add('user.created', user.id, { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt.toISOString() });
    return { userId: user.id, created: true };
  }
}
