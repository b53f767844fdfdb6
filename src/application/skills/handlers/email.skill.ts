import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { USER_MAIL_SENDER, type UserMailSender } from '../../ports/user-mail-sender.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction } from './define-action.js';

/** email: sends one message for the user. No spec shape; ours is `{action: "send", to, subject, text}`. */
@injectable()
export class EmailSkill implements SkillHandler {
  readonly slug = 'email';
  readonly version = '1.0.0';
  readonly capabilities = ['network', 'messaging'] as const;
  readonly actions;

  constructor(@inject(USER_MAIL_SENDER) mail: UserMailSender) {
    this.actions = [
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
      }),
    ];
  }
}
