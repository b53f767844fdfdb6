import { describe, expect, it } from 'vitest';
import { chromiumMissing, openPage, screenshot } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';
import { linkInMail } from '../support/browser/console-service.js';

/**
 * Issue 13's "done when", in one browser session and nothing but the pages: a new user signs up,
 * opens the verification link from the mail, signs in, buys a plan through the development
 * processor, provisions an agent, chats with it over the websocket (the reply streams into the
 * page from a local fake provider), stops and starts it, creates an API key and sees it once, and
 * signs out. No call is made from the test to the API.
 */
describe.skipIf(chromiumMissing)(`from sign-up to talking with a running agent${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium();
  const email = `journey-${Date.now()}@example.test`;
  const password = 'a long journey password';

  it('a new user goes from sign-up to a streamed answer of their running agent, then signs out', async () => {
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    const status = () => page.getByText(/^Status: /).textContent();

    // sign up, then the verification link from the mail
    await page.goto(`${t.base}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Name').fill('Journey');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Check your e-mail' }).count()).toBe(1);
    await page.goto(await linkInMail(t.service.smtp, email, '/verify-email?token='));
    await expect.poll(() => page.getByRole('heading', { name: 'E-mail verified' }).count()).toBe(1);

    // sign in with the form
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.base}/signin`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${t.base}/agents`);

    // buy a plan through the development processor
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await page.getByRole('button', { name: 'Choose Starter' }).click();
    // the development processor's step says that nothing is charged
    await page.getByRole('link', { name: 'Confirm Starter (no charge)' }).click();
    await page.waitForURL(/\/onboarding/, { timeout: 20_000 });
    await expect.poll(() => page.getByRole('heading', { name: "You're subscribed" }).count(), { timeout: 20_000 }).toBe(1);
    await screenshot(page, 'journey-onboarding');

    // provision an agent and watch it come up
    await page.getByRole('link', { name: 'Provision your first agent' }).click();
    await page.waitForURL(`${t.base}/agents`);
    await page.getByLabel('Agent name').fill('Journey agent');
    await page.getByRole('button', { name: 'Provision agent' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Journey agent' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Journey agent' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Journey agent', level: 1 }).count()).toBe(1);
    await expect.poll(status, { timeout: 30_000 }).toBe('Status: running');

    // chat over the websocket: a part of the reply is on the page before the whole of it
    await expect.poll(() => page.getByText('Connected.').count()).toBe(1);
    t.service.provider.setBehaviour({ kind: 'reply', chunks: ['Nice', ' to', ' meet', ' you', '.'], chunkDelayMs: 300 });
    await page.getByLabel('Message').fill('Hello, agent');
    await page.getByRole('button', { name: 'Send' }).click();
    const conversation = page.getByRole('list', { name: 'Conversation' });
    await expect.poll(() => page.locator('.chat-partial').textContent().catch(() => ''), { timeout: 20_000 }).toMatch(/^Agent \(typing\)Nice/);
    await expect.poll(() => conversation.getByRole('listitem').allTextContents(), { timeout: 20_000 }).toEqual(['YouHello, agent', expect.stringMatching(/^AgentNice to meet you\.Answered by \S+$/)]);
    await screenshot(page, 'journey-chat');
    t.service.provider.setBehaviour({ kind: 'reply' });

    // stop, then a message is refused in words; start again
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(status, { timeout: 20_000 }).toBe('Status: stopped');
    await page.getByLabel('Message').fill('Are you there?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByText('The agent is stopped. Start it, then try again.').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(status, { timeout: 30_000 }).toBe('Status: running');

    // an API key, shown once
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Key name').fill('journey key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('Your new API key');
    await expect.poll(() => shown.inputValue()).toMatch(/^sk_/);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'API keys' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('rowheader', { name: 'journey key' }).count()).toBe(1);
    expect(await page.getByLabel('Your new API key').count()).toBe(0);

    // sign out: the session's pages ask to sign in again
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.base}/signin`);
    await page.goto(`${t.base}/agents`);
    await expect.poll(() => page.getByRole('heading', { name: 'Please sign in' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});
