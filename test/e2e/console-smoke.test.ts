import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, type Chromium, openPage } from '../support/browser/chromium.js';
import { startConsoleService, type ConsoleService } from '../support/browser/console-service.js';

/**
 * The console in a real Chromium against the real service process: it loads under its strict
 * policy with no error and no request beyond the service, and routes on the client.
 */
describe.skipIf(chromiumMissing)(`the console in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  let service: ConsoleService;
  let chromium: Chromium;
  let base: string;
  // started here, not in the describe body, which runs even when the file is skipped
  beforeAll(async () => {
    service = await startConsoleService();
    base = service.base;
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.stop();
  });

  it('loads the start page, follows links without a reload, and shows a 404 page for unknown paths', async () => {
    const context = await chromium.browser.newContext();
    const { page, problems } = await openPage(context, base);
    await page.goto(`${base}/`);
    await expect.poll(() => page.getByRole('link', { name: 'Sign in' }).count()).toBeGreaterThan(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(`${base}/signup`);
    await page.goto(`${base}/no/such/page`);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});
