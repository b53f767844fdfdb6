import { describe, expect, it } from 'vitest';
import { signedUpUser, signInContext } from '../support/browser/api-user.js';
import { chromiumMissing, openPage } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';
import { freePort } from '../support/service-process.js';

/**
 * A failing payment processor: Stripe configured, but its API at a port where nothing listens.
 * The checkout and a credit pack show the provider sentence, the page stays, nothing is recorded.
 */
describe.skipIf(chromiumMissing)(`pricing with Stripe unreachable, in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium(async () => {
    const deadPort = await freePort(); // closed again at once: connections are refused
    return {
      STRIPE_SECRET_KEY: 'sk_test_console_dead_stripe',
      STRIPE_WEBHOOK_SECRET: 'whsec_console_dead_stripe',
      STRIPE_API_BASE_URL: `http://127.0.0.1:${deadPort}`,
      STRIPE_TIMEOUT_MS: '2000',
      STRIPE_PRICE_STARTER: 'price_starter_dead',
      STRIPE_PRICE_PRO: 'price_pro_dead',
      STRIPE_PRICE_SCALE: 'price_scale_dead',
      STRIPE_PRICE_CREDITS_50: 'price_c50_dead',
      STRIPE_PRICE_CREDITS_200: 'price_c200_dead',
      STRIPE_PRICE_CREDITS_500: 'price_c500_dead',
    };
  });

  it('Choose Pro and Buy credits show "a service we depend on did not answer"; the user stays on /pricing with no plan and no credits', async () => {
    const user = await signedUpUser(t.base, 'stripe-down');
    const context = await t.chromium.browser.newContext();
    await signInContext(context, t.base, user);
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/pricing`);
    await expect.poll(() => page.getByRole('button', { name: 'Choose Pro' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Choose Pro' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 20_000 }).toContain('A service we depend on did not answer');
    expect(new URL(page.url()).pathname).toBe('/pricing');
    expect(await page.getByRole('button', { name: 'Choose Pro' }).isEnabled()).toBe(true);

    const packs = page.getByRole('region', { name: 'Credit packs' });
    await packs.getByRole('button', { name: 'Buy 5 credits' }).click();
    await expect.poll(() => packs.getByRole('alert').textContent(), { timeout: 20_000 }).toContain('A service we depend on did not answer');

    const billing = await user.call('GET', '/api/billing');
    expect(billing.body).toMatchObject({ currentPlan: 'free', subscriptionStatus: 'none', subscriptions: [] });
    expect((await user.call('GET', '/api/credits')).body.credits).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
