import { z } from 'zod';
import type { WebBrowser } from '../../../ports/web-browser.port.js';
import { defineAction } from '../define-action.js';

/** The `open` action of browser. */
export const openAction = ({ browser }: { browser: WebBrowser }) =>
  defineAction({
    name: 'open',
    description: 'Open an http(s) web page and return its title and text.',
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('open'), url: z.url({ protocol: /^https?$/ }).max(2048) }),
    async run(ctx, { url }) {
      ctx.requireCapability('network');
      return { page: await browser.open(url, ctx.signal) };
    },
  });
