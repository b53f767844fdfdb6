import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/** Mail sent for a user, from an address of theirs (email); not the service's own account mail. */
export interface UserMailSender {
  send(userId: UserId, mail: { to: string; subject: string; text: string }, signal?: AbortSignal): Promise<{ messageId: string }>;
}

export const USER_MAIL_SENDER: InjectionToken<UserMailSender> = Symbol('UserMailSender');
