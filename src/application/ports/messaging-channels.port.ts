import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/** The messaging channels a user connects (the five `*-channel` skills). */
export type MessagingChannel = 'chat-bot' | 'community-chat' | 'phone-messaging' | 'phone-messaging-business' | 'team-chat';

export interface MessagingChannels {
  send(userId: UserId, channel: MessagingChannel, message: { to: string; text: string }, signal?: AbortSignal): Promise<{ messageId: string }>;
}

export const MESSAGING_CHANNELS: InjectionToken<MessagingChannels> = Symbol('MessagingChannels');
