import { inject, injectable } from 'tsyringe';
import {
  EMAIL_VERIFICATION_TTL_MS,
  normalizeEmail,
  normalizeReferralCode,
  referralCodeFrom,
} from '../../domain/accounts/account-rules.js';
import { BotDetectedError, InvalidReferralCodeError } from '../../domain/accounts/accounts.errors.js';
import type { User } from '../../domain/accounts/user.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { BOT_DETECTOR, type BotDetector } from '../ports/bot-detector.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../ports/password-hasher.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { AccountMail } from './account-mail.js';
import { refuseReservedEmail } from './reserved-email.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';

export interface RegisterInput {
  email: string;
  password: string;
  name?: string | undefined;
  referralCode?: string | undefined;
  botToken?: string | undefined;
  ip: string;
}

/**
 * Creates an account: the user, the referral credits on both sides, the verification token and
 * the user.created event and the verification mail (with its delivery job) commit together.
 */
@injectable()
export class RegisterUser {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'emailVerifications' | 'outbox' | 'users' | 'mailOutbox' | 'jobs'>,
    @inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @inject(BOT_DETECTOR) private readonly bots: BotDetector,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    @inject(AccountMail) private readonly mail: AccountMail,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(input: RegisterInput): Promise<User> {
    if (!(await this.bots.isHuman({ token: input.botToken, ip: input.ip }))) throw new BotDetectedError();
    const email = normalizeEmail(input.email);
    refuseReservedEmail(email, this.settings.appUrl);
    const passwordHash = await this.hasher.hash(input.password);
    const verifyToken = newSecretToken(this.ids);
    const credits = this.settings.referralCredits;

    const { user, mail } = await this.uow.asSystem(async (s) => {
      const referrer = input.referralCode ? await s.users.findIdByReferralCode(normalizeReferralCode(input.referralCode)) : null;
      if (input.referralCode && !referrer) throw new InvalidReferralCodeError();
      const created = await s.users.insert({
        email,
        name: input.name?.trim() || email,
        passwordHash,
        referralCode: referralCodeFrom(this.ids.bytes(10)),
        referredBy: referrer,
        credits: referrer ? credits : 0,
      });
      if (referrer) await s.users.addCredits(referrer, credits);
      await s.emailVerifications.issue(sha256(verifyToken), created.id, new Date(this.clock.now().getTime() + EMAIL_VERIFICATION_TTL_MS), { email });
      await s.outbox.add('user.created', created.id, { id: created.id, email: created.email, name: created.name, createdAt: created.createdAt.toISOString() });
      return { user: created, mail: await this.mail.stageVerification(s, created, verifyToken) };
    });
    this.mail.committed(mail);
    return user;
  }
}
