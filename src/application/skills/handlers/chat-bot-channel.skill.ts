import { inject, injectable } from 'tsyringe';
import { MESSAGING_CHANNELS, type MessagingChannels } from '../../ports/messaging-channels.port.js';
import { MessagingChannelSkill } from './messaging-channel/messaging-channel.skill.js';

/** chat-bot-channel: messages through the user's chat-app bot (MessagingChannels). */
@injectable()
export class ChatBotChannelSkill extends MessagingChannelSkill {
  constructor(@inject(MESSAGING_CHANNELS) channels: MessagingChannels) {
    super('chat-bot-channel', 'chat-bot', 'a chat-app bot', channels);
  }
}
