import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { signedUpUser, signInContext } from '../support/browser/api-user.js';
import { chromiumMissing, openPage, screenshot } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';
import { verifyByMail } from '../support/browser/console-service.js';

/**
 * The pricing and onboarding pages in Chromium against the real service with the development
 * payment processor: a plan bought on /pricing lands on /onboarding and lets the user provision;
 * usage, credit packs and BYOK behave; bad input shows the sentence and changes nothing.
 * Users are made through the HTTP API (the sign-in pages are tested on their own).
 */
describe.skipIf(chromiumMissing)(`pricing, billing and onboarding in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const adminEmail = `billing-admin-${process.pid}@example.test`;
  const t = consoleInChromium({ ADMIN_EMAILS: adminEmail });

  async function signedInPage(prefix: string, email?: string) {
    const user = await signedUpUser(t.base, prefix, email);
    // an ADMIN_EMAILS address is an admin's only once verified
    if (email === adminEmail) await verifyByMail(t.service, email);
    const context = await t.chromium.browser.newContext({ viewport: { width: 1000, height: 900 } });
    await signInContext(context, t.base, user);
    const { page, problems } = await openPage(context, t.base);
    return { user, context, page, problems };
  }

  it('signed out, /pricing lists the three plans with their prices and a link to sign in to subscribe', async () => {
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/pricing`);
    await expect.poll(() => page.getByRole('link', { name: 'Sign in to subscribe' }).count()).toBe(1);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Plans and billing');
    for (const [name, price] of [['Starter', '$19'], ['Pro', '$39'], ['Scale', '$79']]) {
      const card = page.locator('article', { has: page.getByRole('heading', { name, exact: true }) });
      await expect(card.textContent()).resolves.toContain(price);
    }
    expect(await page.getByRole('button', { name: /^Choose / }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sign in to subscribe' }).getAttribute('href')).toBe('/signin?next=%2Fpricing');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Choose Pro goes through the development processor to /onboarding; the plan is active and provisioning is allowed', async () => {
    const { user, context, page, problems } = await signedInPage('buyer');
    // before: no plan, so provisioning is refused
    expect((await user.call('POST', '/api/agents/provision', { name: 'too-early' })).status).toBe(402);

    await page.goto(`${t.base}/pricing`);
    await expect.poll(() => page.getByRole('button', { name: 'Choose Pro' }).count()).toBe(1);
    for (const [name, price] of [['Starter', '$19'], ['Pro', '$39'], ['Scale', '$79']]) {
      const card = page.locator('article', { has: page.getByRole('heading', { name, exact: true }) });
      await expect(card.textContent()).resolves.toContain(price);
      expect(await card.getByRole('button', { name: `Choose ${name}` }).isEnabled()).toBe(true);
    }
    await expect(page.locator('main').textContent()).resolves.toContain('Free (no plan)');
    await screenshot(page, 'billing-pricing');

    await page.getByRole('button', { name: 'Choose Pro' }).click();
    // the development processor: a step that says plainly that nothing is charged, and nothing changed yet
    const step = page.getByRole('region', { name: 'Test checkout: nothing is charged' });
    await expect.poll(() => step.count()).toBe(1);
    expect((await user.call('GET', '/api/billing')).body.currentPlan).toBe('free');
    await screenshot(page, 'billing-dev-checkout');
    await step.getByRole('link', { name: 'Confirm Pro (no charge)' }).click();
    await page.waitForURL(`${t.base}/onboarding`);
    await expect.poll(() => page.getByRole('heading', { name: "You're subscribed" }).count()).toBe(1);
    await expect(page.locator('main').textContent()).resolves.toMatch(/Your plan Pro is active/);
    expect(await page.getByRole('link', { name: 'Provision your first agent' }).getAttribute('href')).toBe('/agents');
    await screenshot(page, 'billing-onboarding');

    const billing = await user.call('GET', '/api/billing');
    expect(billing.body).toMatchObject({ currentPlan: 'pro', subscriptionStatus: 'active', usage: { dailyUnits: 1000 } });
    expect(billing.body.subscriptions).toEqual([expect.objectContaining({ plan: 'pro', catalog: 'billing', status: 'active' })]);
    const provisioned = await user.call('POST', '/api/agents/provision', { name: 'first-agent' });
    expect(provisioned.status).toBe(201);

    // back on /pricing: Pro is the current plan (its button disabled), and today's units show
    await page.goto(`${t.base}/pricing`);
    await expect.poll(() => page.getByRole('heading', { name: 'Usage today' }).count()).toBe(1);
    const pro = page.locator('article', { has: page.getByRole('heading', { name: 'Pro', exact: true }) });
    await expect.poll(() => pro.getByRole('button', { name: 'Choose Pro' }).isDisabled()).toBe(true);
    await expect(pro.textContent()).resolves.toContain('Your current plan');
    // a second plan is not bought beside the first: switching goes through the billing portal
    expect(await page.getByRole('button', { name: 'Choose Scale' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Change or cancel' }).count()).toBe(1);
    const usage = page.getByRole('region', { name: 'Usage today' });
    await expect(usage.textContent()).resolves.toContain('0 of 1,000 units used, 1,000 left');
    expect(await usage.getByRole('meter', { name: 'Units used today' }).getAttribute('max')).toBe('1000');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('changes the plan and then cancels it through the development billing portal; the console and GET /api/billing follow', async () => {
    const { user, context, page, problems } = await signedInPage('portal');
    await page.goto(`${t.base}/pricing`);
    await page.getByRole('button', { name: 'Choose Starter' }).click();
    await page.getByRole('link', { name: 'Confirm Starter (no charge)' }).click();
    await page.waitForURL(`${t.base}/onboarding`);
    expect((await user.call('GET', '/api/billing')).body.currentPlan).toBe('starter');

    // the console's "Change or cancel" opens the portal (the development processor's page)
    await page.goto(`${t.base}/pricing`);
    await page.getByRole('button', { name: 'Change or cancel' }).click();
    await page.waitForURL(/\/billing\/portal\?session=/);
    const plan = page.getByRole('region', { name: 'Your Starter plan' });
    await expect.poll(() => plan.getByRole('button', { name: 'Switch to Pro' }).count()).toBe(1);
    expect(await page.getByText('nothing is charged or refunded here').count()).toBe(1);
    await screenshot(page, 'billing-portal');
    await plan.getByRole('button', { name: 'Switch to Pro' }).click();
    // the switch went through the subscription-event path: the portal, the API and the console all say Pro
    await expect.poll(() => page.getByRole('region', { name: 'Your Pro plan' }).count()).toBe(1);
    await expect.poll(async () => (await user.call('GET', '/api/billing')).body.currentPlan).toBe('pro');
    expect((await user.call('GET', '/api/billing')).body.subscriptions.filter((s: { status: string }) => s.status === 'active')).toHaveLength(1);
    await page.getByRole('link', { name: 'Return to plans and billing' }).click();
    await expect.poll(() => page.locator('.billing-summary').textContent()).toContain('Your plan: Pro');
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Back from the billing portal');

    // cancelling: the plan ends, the console offers the plans again
    await page.getByRole('button', { name: 'Change or cancel' }).click();
    await page.waitForURL(/\/billing\/portal\?session=/);
    await page.getByRole('region', { name: 'Your Pro plan' }).getByRole('button', { name: 'Cancel plan' }).click();
    await expect.poll(() => page.getByText('You have no active plan to change.').count()).toBe(1);
    await expect.poll(async () => (await user.call('GET', '/api/billing')).body.currentPlan).toBe('free');
    await page.getByRole('link', { name: 'Return to plans and billing' }).click();
    await expect.poll(() => page.locator('.billing-summary').textContent()).toContain('Free');
    await expect.poll(() => page.getByRole('button', { name: 'Choose Pro' }).isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Change or cancel' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws usage over time from the stored usage: 30 days against the daily allowance, credits spent, and the figures in words', async () => {
    const { user, context, page, problems } = await signedInPage('usage-chart');
    await page.goto(`${t.base}/pricing`);
    await page.getByRole('button', { name: 'Choose Starter' }).click();
    await page.getByRole('link', { name: 'Confirm Starter (no charge)' }).click();
    await page.waitForURL(`${t.base}/onboarding`);
    // seeded as the meter writes it: units per UTC day, of which some paid with credits
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const db = new pg.Client({ connectionString: t.service.databaseUrl });
    await db.connect();
    try {
      await db.query(`insert into daily_usage (user_id, day, used_units, credit_units) values ($1, $2, 200, 0), ($1, $3, 650, 150), ($1, $4, 40, 0)`, [user.id, day(20), day(3), day(0)]);
    } finally {
      await db.end();
    }
    await page.goto(`${t.base}/pricing`);
    const chart = page.getByTestId('usage-chart');
    await expect.poll(() => chart.count()).toBe(1);
    const data = JSON.parse((await chart.getAttribute('data-chart'))!);
    expect(data.x).toHaveLength(30);
    const [used, allowance, credits] = data.series;
    expect(used.label).toBe('Units used');
    expect(used.values[29]).toBe(40);
    expect(used.values[26]).toBe(650);
    expect(used.values[9]).toBe(200);
    expect(used.values.reduce((n: number, v: number) => n + v, 0)).toBe(890);
    expect(new Set(allowance.values)).toEqual(new Set([600]));
    expect(credits.values[26]).toBe(1.5);
    // the same figures for a screen reader, and a canvas drawn under the strict CSP
    const summary = await chart.locator('figcaption').textContent();
    expect(summary).toContain(`890 units used in the last 30 days; the busiest day was ${day(3)} with 650`);
    expect(summary).toContain('Daily allowance: 600 units, passed on 1 day. Credits spent: 1.5.');
    expect(await chart.locator('.chart-table tbody tr').count()).toBe(30);
    expect(await chart.locator('canvas').count()).toBe(1);
    expect((await user.call('GET', '/api/billing/usage?days=30')).body.days[26]).toEqual({ day: day(3), usedUnits: 650, creditUnits: 150 });
    await page.getByRole('region', { name: 'Usage over time' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'billing-usage-chart');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('buying a credit pack goes through the processor, returns to /pricing and shows the raised balance', async () => {
    const { user, context, page, problems } = await signedInPage('credits');
    await page.goto(`${t.base}/pricing`);
    const packs = page.getByRole('region', { name: 'Credit packs' });
    await expect.poll(() => packs.textContent()).toContain('Your balance: 0 credits');
    await packs.getByRole('button', { name: 'Buy 15 credits' }).click();
    await page.waitForURL(`${t.base}/pricing?checkout=credits`);
    await expect.poll(() => page.getByRole('region', { name: 'Credit packs' }).textContent()).toContain('Your balance: 15 credits');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('credit pack is paid');
    expect((await user.call('GET', '/api/credits')).body.credits).toBe(15);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a cancelled checkout shows a plain notice and changes nothing', async () => {
    const { user, context, page, problems } = await signedInPage('cancel');
    await page.goto(`${t.base}/pricing?checkout=canceled`);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('The checkout was cancelled');
    expect((await user.call('GET', '/api/billing')).body.currentPlan).toBe('free');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('BYOK: a bad key shows the sentence and stores nothing; a good key is stored, never shown back, and can be removed', async () => {
    const { user, context, page, problems } = await signedInPage('byok');
    await page.goto(`${t.base}/pricing`);
    const byok = page.getByRole('region', { name: 'Your own provider keys' });
    await expect.poll(() => byok.getByLabel('API key').count()).toBe(1);
    await byok.getByLabel('Provider').selectOption('openai');
    await byok.getByLabel('API key').fill('short');
    await byok.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => byok.getByRole('alert').textContent()).toContain('Please check what you entered');
    expect((await user.call('GET', '/api/billing')).body.byokEnabled).toBe(false);

    const key = 'sk-my-own-provider-key-0123456789';
    await byok.getByLabel('API key').fill(key);
    await byok.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => byok.getByRole('status').textContent()).toContain('Bring-your-own-key enabled for openai');
    expect((await user.call('GET', '/api/billing')).body.byokEnabled).toBe(true);
    expect(await byok.getByRole('alert').count()).toBe(0);
    await expect(byok.getByLabel('API key').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain(key);
    await expect(byok.textContent()).resolves.toContain('Your own key is in use');

    await byok.getByRole('button', { name: 'Remove my keys' }).click();
    await expect.poll(() => byok.getByRole('status').textContent()).toContain('Bring-your-own-key disabled');
    expect((await user.call('GET', '/api/billing')).body.byokEnabled).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an admin choosing a plan goes straight to onboarding, which says no plan is needed', async () => {
    const { user, context, page, problems } = await signedInPage('admin', adminEmail);
    await page.goto(`${t.base}/pricing`);
    await expect.poll(() => page.getByRole('button', { name: 'Choose Starter' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Choose Starter' }).click();
    await page.waitForURL(`${t.base}/onboarding`);
    await expect.poll(() => page.getByRole('heading', { name: "You're all set" }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Provision your first agent' }).getAttribute('href')).toBe('/agents');
    expect((await user.call('POST', '/api/agents/provision', { name: 'admin-agent' })).status).toBe(201);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works at 360 px wide: no sideways scrolling, every plan button reachable', async () => {
    const { context, page, problems } = await signedInPage('narrow');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${t.base}/pricing`);
    await expect.poll(() => page.getByRole('button', { name: 'Choose Scale' }).count()).toBe(1);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Choose Scale' }).focus();
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Choose Scale');
    expect(problems).toEqual([]);
    await context.close();
  });
});
