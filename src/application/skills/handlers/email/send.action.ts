import { z } from 'zod';
import type { UserMailSender } from '../../../ports/user-mail-sender.port.js';
import { defineAction } from '../define-action.js';

/** The `send` action of email. */
export const sendAction = ({ mail }: { mail: UserMailSender }) =>
  defineAction({
    name: 'send',
    description: 'Send a plain-text e-mail from the user to one address.',
    capabilities: ['network', 'messaging'],
    input: z.strictObject({ action: z.literal('send'), to: z.email().max(254), subject: z.string().trim().min(1).max(200), text: z.string().min(1).max(100_000) }),
    async run(ctx, { to, subject, text }) {
      ctx.requireCapability('messaging');
      ctx.requireCapability('network');
      return await mail.send(ctx.userId, { to, subject, text }, ctx.signal);
    },
  });
