import { inject, injectable } from 'tsyringe';
import { USER_MAIL_SENDER, type UserMailSender } from '../../../ports/user-mail-sender.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { sendAction } from './send.action.js';

/** email: sends one message for the user. No spec shape; ours is `{action: "send", to, subject, text}`. */
@injectable()
export class EmailSkill implements SkillHandler {
  readonly slug = 'email';
  readonly version = '1.0.0';
  readonly capabilities = ['network', 'messaging'] as const;
  readonly actions;

  constructor(@inject(USER_MAIL_SENDER) mail: UserMailSender) {
    this.actions = [sendAction({ mail })];
  }
}
