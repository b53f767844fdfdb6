import { inject, injectable } from 'tsyringe';
import { MESSAGING_CHANNELS, type MessagingChannels } from '../../ports/messaging-channels.port.js';
import { MessagingChannelSkill } from './messaging-channel/messaging-channel.skill.js';

/** team-chat-channel: messages through the user's team chat workspace (MessagingChannels). */
@injectable()
export class TeamChatChannelSkill extends MessagingChannelSkill {
  constructor(@inject(MESSAGING_CHANNELS) channels: MessagingChannels) {
    super('team-chat-channel', 'team-chat', 'a team chat workspace', channels);
  }
}
