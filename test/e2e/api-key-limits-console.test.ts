import { describe, expect, it } from 'vitest';
import { alertText, freshEmail, registerThroughApi, signInWithForm } from '../support/browser/accounts.js';
import { chromiumMissing, openPage } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';

/** The settings page's API keys panel sets a key's limits and shows them with today's use (decision 0425). */
describe.skipIf(chromiumMissing)(`API key limits in the console${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium({ RATE_LIMIT_AUTH: '1000' });

  it('creates a key with a daily cap and a rate limit, shows them with its use today, and changes them; a bad value is explained', async () => {
    const email = freshEmail('limits');
    await registerThroughApi(t.base, email, 'limits-password-1');
    const context = await t.chromium.browser.newContext({ viewport: { width: 360, height: 800 } });
    const { page, problems } = await openPage(context, t.base);
    await signInWithForm(page, t.base, email, 'limits-password-1', '/settings');
    await page.getByRole('heading', { name: 'API keys', exact: true }).waitFor();

    await page.getByLabel('Key name').fill('shared with a friend');
    await page.getByLabel('Daily units').first().fill('50');
    await page.getByLabel('Requests a minute').first().fill('20');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Your new API key').waitFor();
    const row = page.getByRole('row', { name: /shared with a friend/ });
    await expect.poll(async () => row.textContent()).toContain('0 of 50 units');
    expect(await row.textContent()).toContain('20 requests a minute');

    await row.getByRole('button', { name: 'Edit limits' }).click();
    const form = page.getByRole('form', { name: 'Limits of shared with a friend' });
    await expect.poll(() => form.getByLabel('Daily units').inputValue()).toBe('50');
    // a model the service does not know is explained, and nothing is saved
    await form.getByLabel('Models').fill('no-such/model');
    await form.getByRole('button', { name: 'Save limits' }).click();
    expect(await alertText(page)).toMatch(/models/);
    expect(await row.textContent()).toContain('0 of 50 units');
    await form.getByLabel('Daily units').fill('');
    await form.getByLabel('Models').fill('openai/gpt-4o-mini');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await expect.poll(async () => row.textContent()).toContain('models: openai/gpt-4o-mini');
    expect(await row.textContent()).toContain('0 units');
    expect(problems).toEqual([]);
    await context.close();
  });
});
