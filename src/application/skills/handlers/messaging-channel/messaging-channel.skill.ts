import type { SkillSlug } from '../../../../domain/skills/skill-catalog-ids.js';
import type { MessagingChannel, MessagingChannels } from '../../../ports/messaging-channels.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { sendAction } from './send.action.js';

/**
 * What the five `*-channel` skills share: one `send` action to a recipient the channel names
 * (a chat id, a channel, a phone number). No spec shape; ours is `{action: "send", to, text}`.
 */
export abstract class MessagingChannelSkill implements SkillHandler {
  readonly version = '1.0.0';
  readonly capabilities = ['network', 'messaging'] as const;
  readonly actions: readonly SkillAction[];

  protected constructor(readonly slug: SkillSlug, channel: MessagingChannel, where: string, channels: MessagingChannels) {
    this.actions = [sendAction({ channels, channel, where })];
  }
}
