import { inject, injectable } from 'tsyringe';
import { EMAIL_VERIFICATION_TTL_MS, normalizeEmail } from '../../domain/accounts/account-rules.js';
import { UserNotFoundError } from '../../domain/accounts/accounts.errors.js';
import type { User } from '../../domain/accounts/user.js';
import type { Actor } from '../auth/actor.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope, AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import type { ProfileChanges } from '../ports/user-repository.port.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';
import { AccountMail } from './account-mail.js';
import { refuseReservedEmail } from './reserved-email.js';

/**
 * Changes name, e-mail or notification preferences. A new e-mail is unverified until the link
 * sent to it is followed, so an address in ADMIN_EMAILS or TESTER_EMAILS grants nothing until
 * then. user.updated is written with the change, only when something changed.
 */
@injectable()
export class UpdateProfile {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'users' | 'outbox'> & SystemWork<AccountsSystemScope, 'emailVerifications' | 'mailOutbox' | 'jobs'>,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(AccountMail) private readonly mail: AccountMail,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
    @inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(actor: Actor, changes: ProfileChanges): Promise<User> {
    const wanted = { ...changes, ...(changes.email !== undefined ? { email: normalizeEmail(changes.email) } : {}) };
    if (wanted.email !== undefined) refuseReservedEmail(wanted.email, this.settings.appUrl);
    const token = newSecretToken(this.ids);
    const { user, emailChanged } = await this.uow.asUser(actor.userId, async (s) => {
      const before = await s.users.me();
      if (!before) throw new UserNotFoundError();
      const diff = changedFields(before, wanted);
      if (Object.keys(diff).length === 0) return { user: before, emailChanged: false };
      const after = await s.users.update(diff);
      if (!after) throw new UserNotFoundError();
      await s.outbox.add('user.updated', after.id, { id: after.id, changed: Object.keys(diff) });
      return { user: after, emailChanged: diff.email !== undefined };
    });
    if (emailChanged) {
      // The new address is unverified (a trigger clears the mark): the role is read again now.
      await this.revocations.emailChanged(user.id);
      const mail = await this.uow.asSystem(async (s) => {
        await s.emailVerifications.issue(sha256(token), user.id, new Date(this.clock.now().getTime() + EMAIL_VERIFICATION_TTL_MS), { email: user.email });
        return this.mail.stageVerification(s, user, token);
      });
      this.mail.committed(mail);
    }
    return user;
  }
}

function changedFields(before: User, wanted: ProfileChanges): ProfileChanges {
  const diff: ProfileChanges = {};
  if (wanted.name !== undefined && wanted.name !== before.name) diff.name = wanted.name;
  if (wanted.email !== undefined && wanted.email !== before.email) diff.email = wanted.email;
  if (wanted.notifications !== undefined) {
    const merged = { ...before.notifications, ...wanted.notifications };
    if (JSON.stringify(merged) !== JSON.stringify(before.notifications)) diff.notifications = merged;
  }
  return diff;
}
