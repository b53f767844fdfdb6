import { describe, expect, it } from 'vitest';
import { signInContext, subscribedUser } from '../support/browser/api-user.js';
import { chromiumMissing, openPage } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';

/**
 * The console of a fresh clone, which has no AI model provider: the agent runs, a message gets the
 * sentence that says why it cannot be answered (not "try again"), and after a reload the message is
 * still shown as not answered.
 */
describe.skipIf(chromiumMissing)(`an agent with no AI provider configured, in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium({ RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_CHAT: '100000' }, { aiProvider: false });

  it('says "No AI model provider is configured" when a message fails, and marks the message not answered after a reload', async () => {
    const owner = await subscribedUser(t.base, 'starter', 'no-provider');
    const provisioned = await owner.call('POST', '/api/agents/provision', { name: 'Quiet' });
    expect(provisioned.status).toBe(201);
    const agentId = provisioned.body.agent.id as string;
    await expect.poll(async () => (await owner.call('GET', `/api/agents/${agentId}`)).body.agent.status, { timeout: 60_000 }).toBe('running');

    const context = await t.chromium.browser.newContext();
    await signInContext(context, t.base, owner);
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/agents/${agentId}`);
    await expect.poll(() => page.getByText('Connected.').count(), { timeout: 20_000 }).toBe(1);
    await page.getByLabel('Message').fill('Hello?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 }).toContain('No AI model provider is configured');

    await page.reload();
    const conversation = page.getByRole('list', { name: 'Conversation' });
    await expect.poll(() => conversation.textContent(), { timeout: 20_000 }).toContain('Hello?');
    expect(await conversation.textContent()).toContain('Not answered: No AI model provider is configured');
    expect(problems).toEqual([]);
    await context.close();
  });
});
