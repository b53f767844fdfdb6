import { inject, injectable } from 'tsyringe';
import { MESSAGING_CHANNELS, type MessagingChannels } from '../../ports/messaging-channels.port.js';
import { MessagingChannelSkill } from './messaging-channel/messaging-channel.skill.js';

/** phone-messaging-channel: messages through the user's phone messaging number (MessagingChannels). */
@injectable()
export class PhoneMessagingChannelSkill extends MessagingChannelSkill {
  constructor(@inject(MESSAGING_CHANNELS) channels: MessagingChannels) {
    super('phone-messaging-channel', 'phone-messaging', 'phone messaging (a phone number)', channels);
  }
}
