import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { chromiumMissing, openPage, screenshot } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';
import { signInContext, subscribedUser, type ApiUser } from '../support/browser/api-user.js';

/**
 * The agent page's Schedules panel in a real Chromium against the real service process: a wrong
 * cron is said and nothing is stored, a schedule is added in a chosen zone and listed with its
 * next run, its runs are shown, and it is removed. The ticks themselves are the integration tests'
 * (test/integration/agents/agent-schedule-runs.test.ts): the worker's pass comes once a minute.
 */
describe.skipIf(chromiumMissing)(`the schedules panel in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium({ RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_AUTH: '100000' });

  let owner: ApiUser;
  let context: BrowserContext;
  let page: Page;
  let agentId = '';
  let problems: string[] = [];

  beforeAll(async () => {
    owner = await subscribedUser(t.base, 'starter', 'schedules');
    const provisioned = await owner.call('POST', '/api/agents/provision', { name: 'Clockwork' });
    expect(provisioned.status).toBe(201);
    agentId = provisioned.body.agent.id;
    context = await t.chromium.browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'en-GB' });
    await signInContext(context, t.base, owner);
    ({ page, problems } = await openPage(context, t.base));
  });
  afterAll(() => context?.close());
  // a page that never showed its panel (once, in a whole CI run) says where it was and what it showed
  beforeEach(() =>
    onTestFailed(async () => {
      const text = await page?.locator('body').innerText({ timeout: 2_000 }).catch((e: unknown) => `(unreadable: ${String(e)})`);
      console.error(`the page at ${page?.url()}:\n${text?.slice(0, 2_000)}\nits problems: ${JSON.stringify(problems)}`);
    }),
  );

  const panel = () => page.getByRole('region', { name: 'Schedules' });
  const stored = async () => (await owner.call('GET', `/api/agents/${agentId}/schedules`)).body.schedules as { id: string; cron: string; timezone: string; content: string; nextRunAt: string }[];

  it("offers the reader's own timezone; a wrong cron is explained and nothing is stored", async () => {
    await page.goto(`${t.base}/agents/${agentId}`);
    await expect.poll(() => panel().getByRole('heading', { name: 'Schedules', level: 2 }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => panel().getByText('No schedules yet.').count()).toBe(1);
    expect(await panel().getByLabel('Timezone').inputValue()).toBe('Europe/Berlin');
    await panel().getByLabel('Cron').fill('every morning');
    await panel().getByLabel('Text to send').fill('Good morning!');
    await panel().getByRole('button', { name: 'Add schedule' }).click();
    await expect.poll(() => panel().getByRole('alert').textContent()).toMatch(/^Please check what you entered: cron must have five fields/);
    await panel().getByLabel('Cron').fill('0 9 * * *');
    await panel().getByLabel('Timezone').fill('Mars/Olympus_Mons');
    await panel().getByRole('button', { name: 'Add schedule' }).click();
    await expect.poll(() => panel().getByRole('alert').textContent()).toMatch(/timezone is not an IANA timezone/);
    expect(await stored()).toEqual([]);
  }, 60_000); // the first visit waits up to 30 s for the page: the poll, not the test, says so

  it('adds a schedule: listed with its next run in local time, as the API stores it', async () => {
    await panel().getByLabel('Timezone').fill('Europe/Berlin');
    await panel().getByRole('button', { name: 'Add schedule' }).click();
    await expect.poll(() => panel().getByRole('status').textContent()).toMatch(/^Scheduled: next run /);
    const [s] = await stored();
    expect(s).toMatchObject({ cron: '0 9 * * *', timezone: 'Europe/Berlin', content: 'Good morning!' });
    const row = panel().getByRole('row').filter({ hasText: 'Good morning!' });
    await expect.poll(() => row.count()).toBe(1);
    // 09:00 in Berlin, shown in the reader's zone (the context's: Berlin too)
    expect(await row.textContent()).toContain('09:00:00');
    expect(await row.textContent()).toContain(new Date(s!.nextRunAt).toLocaleString('en-GB', { timeZone: 'Europe/Berlin' }));
    // the form is empty again for the next one
    expect(await panel().getByLabel('Cron').inputValue()).toBe('');
    await screenshot(page, 'agent-schedules');
  });

  it("shows a schedule's runs (none before its first tick) and removes it", async () => {
    await panel().getByRole('button', { name: 'Runs of 0 9 * * *' }).click();
    await expect.poll(() => panel().getByText('It has not ticked yet.').count()).toBe(1);
    await panel().getByRole('button', { name: 'Remove schedule 0 9 * * *' }).click();
    await expect.poll(() => panel().getByText('No schedules yet.').count()).toBe(1);
    expect(await stored()).toEqual([]);
    // a reload reads the same from the API
    await page.reload();
    await expect.poll(() => panel().getByText('No schedules yet.').count(), { timeout: 30_000 }).toBe(1);
  });
});
