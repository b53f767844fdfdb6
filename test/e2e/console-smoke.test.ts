import { describe, expect, it } from 'vitest';
import { chromiumMissing, openPage } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';

/**
 * The console in a real Chromium against the real service process: it loads under its strict
 * policy with no error and no request beyond the service, and routes on the client.
 */
describe.skipIf(chromiumMissing)(`the console in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium();

  it('loads the start page, follows links without a reload, and shows a 404 page for unknown paths', async () => {
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/`);
    await expect.poll(() => page.getByRole('link', { name: 'Sign in' }).count()).toBeGreaterThan(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(`${t.base}/signup`);
    await page.goto(`${t.base}/no/such/page`);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});
