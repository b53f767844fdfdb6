import { inject, injectable } from 'tsyringe';
import { MESSAGING_CHANNELS, type MessagingChannels } from '../../ports/messaging-channels.port.js';
import { MessagingChannelSkill } from './messaging-channel/messaging-channel.skill.js';

/** community-chat-channel: messages through the user's community chat server (MessagingChannels). */
@injectable()
export class CommunityChatChannelSkill extends MessagingChannelSkill {
  constructor(@inject(MESSAGING_CHANNELS) channels: MessagingChannels) {
    super('community-chat-channel', 'community-chat', 'a community chat server', channels);
  }
}
