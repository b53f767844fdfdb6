import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { WEB_BROWSER, type WebBrowser } from '../../ports/web-browser.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction } from './define-action.js';

/** browser: opens a page and reads its text. No spec shape; ours is `{action: "open", url}`. */
@injectable()
export class BrowserSkill implements SkillHandler {
  readonly slug = 'browser';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(WEB_BROWSER) browser: WebBrowser) {
    this.actions = [
      defineAction({
        name: 'open',
        description: 'Open an http(s) web page and return its title and text.',
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('open'), url: z.url({ protocol: /^https?$/ }).max(2048) }),
        async run(ctx, { url }) {
          ctx.requireCapability('network');
          return { page: await browser.open(url, ctx.signal) };
        },
      }),
    ];
  }
}
