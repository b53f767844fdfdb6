import { inject, injectable } from 'tsyringe';
import { MESSAGING_CHANNELS, type MessagingChannels } from '../../ports/messaging-channels.port.js';
import { MessagingChannelSkill } from './messaging-channel/messaging-channel.skill.js';

/** phone-messaging-business-channel: messages through the user's business messaging account (MessagingChannels). */
@injectable()
export class PhoneMessagingBusinessChannelSkill extends MessagingChannelSkill {
  constructor(@inject(MESSAGING_CHANNELS) channels: MessagingChannels) {
    super('phone-messaging-business-channel', 'phone-messaging-business', 'a business phone messaging account', channels);
  }
}
