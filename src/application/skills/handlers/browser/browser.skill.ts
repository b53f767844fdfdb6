import { inject, injectable } from 'tsyringe';
import { WEB_BROWSER, type WebBrowser } from '../../../ports/web-browser.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { openAction } from './open.action.js';

/** browser: opens a page and reads its text. No spec shape; ours is `{action: "open", url}`. */
@injectable()
export class BrowserSkill implements SkillHandler {
  readonly slug = 'browser';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(WEB_BROWSER) browser: WebBrowser) {
    this.actions = [openAction({ browser })];
  }
}
