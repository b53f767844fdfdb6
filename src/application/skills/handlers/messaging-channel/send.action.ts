import { z } from 'zod';
import type { MessagingChannel, MessagingChannels } from '../../../ports/messaging-channels.port.js';
import { defineAction } from '../define-action.js';

/** The `send` action of the five `*-channel` skills: `where` names the channel to the model. */
export const sendAction = ({ channels, channel, where }: { channels: MessagingChannels; channel: MessagingChannel; where: string }) =>
  defineAction({
    name: 'send',
    description: `Send a text message to a recipient on ${where}.`,
    capabilities: ['network', 'messaging'],
    input: z.strictObject({ action: z.literal('send'), to: z.string().trim().min(1).max(200), text: z.string().min(1).max(4096) }),
    async run(ctx, { to, text }) {
      ctx.requireCapability('messaging');
      ctx.requireCapability('network');
      return await channels.send(ctx.userId, channel, { to, text }, ctx.signal);
    },
  });
