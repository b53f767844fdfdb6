import pg from 'pg';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, openPage, screenshot } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';
import { signedUpUser, signInContext, subscribedUser, type ApiUser } from '../support/browser/api-user.js';

/**
 * The agents pages in a real Chromium against the real service process (agents are real child
 * processes answering through the fake OpenAI-format provider). The user is subscribed from Node
 * through the HTTP API, and the browser gets the session cookie.
 */
describe.skipIf(chromiumMissing)(`the agents pages in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium({ RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_INSTANCE: '100000', RATE_LIMIT_AUTH: '100000', RATE_LIMIT_CHAT: '100000' });

  // One subscribed user (starter: one agent) whose agent the tests below share, in order.
  let owner: ApiUser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let agentId = '';
  // the model the provider reported for the replies (the fake provider answers as the model asked for)
  let answeredBy = '';

  beforeAll(async () => {
    owner = await subscribedUser(t.base, 'starter', 'owner');
    context = await t.chromium.browser.newContext();
    await signInContext(context, t.base, owner);
    ({ page, problems } = await openPage(context, t.base));
  });
  afterAll(() => context?.close());

  const alert = (text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });
  const conversation = () => page.getByRole('list', { name: 'Conversation' });
  const statusText = () => page.getByText(/^Status: /).textContent();

  it('provisions an agent from the list, shows the limit, and the list follows it from provisioning to running', async () => {
    await page.goto(`${t.base}/agents`);
    await expect.poll(() => page.getByRole('heading', { name: 'Your agents', level: 1 }).count()).toBe(1);
    await expect.poll(() => page.getByText('0 of 1 agents').count()).toBe(1);
    // the select offers the provision models: the default, the other label model, custom
    const model = page.getByLabel('Model');
    await expect.poll(() => model.locator('option').count()).toBe(3);
    expect(await model.locator('option').last().getAttribute('value')).toBe('custom');
    await page.getByLabel('Agent name').fill('Ada');
    await page.getByRole('button', { name: 'Provision agent' }).click();
    const link = page.getByRole('link', { name: 'Ada' });
    await expect.poll(() => link.count()).toBe(1);
    await expect.poll(() => page.getByText('1 of 1 agents').count()).toBe(1);
    agentId = (await link.getAttribute('href'))!.split('/').pop()!;
    const stored = await owner.call('GET', '/api/agents');
    expect(stored.body.agents).toEqual([expect.objectContaining({ id: agentId, name: 'Ada' })]);
    // the page looks again by itself until the agent runs
    await expect.poll(() => page.getByRole('listitem').filter({ has: link }).textContent(), { timeout: 60_000 }).toContain('running');
    await screenshot(page, 'agents-list');
  });

  it('when the plan limit is reached, the provision form is disabled and says how to make room, and nothing is created', async () => {
    await expect.poll(() => page.getByRole('button', { name: 'Provision agent' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Agent name').isDisabled()).toBe(true);
    await expect.poll(() => page.getByText(/^Your plan allows 1 agent: remove one/).count()).toBe(1);
    expect((await owner.call('GET', '/api/agents')).body.count).toBe(1);
  });

  it('opens the agent and chats over its websocket: the message, the reply growing from deltas, then the stored reply', async () => {
    await page.getByRole('link', { name: 'Ada' }).click();
    await page.waitForURL(`${t.base}/agents/${agentId}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Ada', level: 1 }).count()).toBe(1);
    await expect.poll(statusText).toBe('Status: running');
    for (const h of ['Chat', 'Configuration', 'Live stats', 'Memory', 'Skills', 'Verification']) expect(await page.getByRole('heading', { name: h, level: 2 }).count()).toBe(1);
    await expect.poll(() => page.getByText('Connected.').count()).toBe(1);

    t.service.provider.setBehaviour({ kind: 'reply', chunks: ['Hello', ' from', ' the', ' agent', '!'], chunkDelayMs: 400 });
    await page.getByLabel('Message').fill('Hi there');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => conversation().textContent()).toContain('Hi there');
    // a part of the reply is on the page before the whole of it
    await expect.poll(() => page.locator('.chat-partial').textContent().catch(() => ''), { timeout: 20_000 }).toMatch(/^Agent \(typing\)Hello/);
    await expect.poll(() => conversation().getByRole('listitem').last().textContent(), { timeout: 20_000 }).toMatch(/^AgentHello from the agent!Answered by \S+$/);
    // the reply is stored with the model that answered, and the page shows that one
    const reply = (await owner.call('GET', `/api/agents/${agentId}/messages`)).body.messages[0];
    answeredBy = reply.model;
    expect(answeredBy).toBe((await owner.call('GET', '/api/agents')).body.agents[0].model);
    expect(await conversation().getByRole('listitem').last().textContent()).toBe(`AgentHello from the agent!Answered by ${answeredBy}`);
    expect(await page.locator('.chat-partial').count()).toBe(0);
    await screenshot(page, 'agents-chat');
    // both messages are stored: a reload shows them from the history
    await page.reload();
    await expect.poll(() => conversation().getByRole('listitem').allTextContents()).toEqual(['YouHi there', `AgentHello from the agent!Answered by ${answeredBy}`]);
    t.service.provider.setBehaviour({ kind: 'reply' });
  });

  it('when the socket drops, the chat says so, connects again by itself and goes on', async () => {
    // the page's sockets pass through playwright, which can drop one as a network would
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/api\/agents\/[^/]+\/ws$/, (ws) => {
      sockets.push(ws);
      ws.connectToServer();
    });
    await page.reload();
    await expect.poll(() => page.getByText('Connected.').count()).toBe(1);
    expect(sockets).toHaveLength(1);
    await sockets[0]!.close({ code: 1001, reason: 'dropped by the test' });
    await expect.poll(() => page.getByText('Connecting…').count()).toBe(1);
    await expect.poll(() => page.getByText('Connected.').count(), { timeout: 20_000 }).toBe(1);
    expect(sockets).toHaveLength(2);
    await page.getByLabel('Message').fill('Back again');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => conversation().getByRole('listitem').allTextContents(), { timeout: 20_000 }).toEqual(['YouHi there', `AgentHello from the agent!Answered by ${answeredBy}`, 'YouBack again', `AgentHello, world!Answered by ${answeredBy}`]);
  });

  it('shows live stats, refreshed while the page is open', async () => {
    const stats = page.getByRole('region', { name: 'Live stats' });
    await expect.poll(() => stats.getByText('Messages processed').count()).toBe(1);
    expect(await stats.textContent()).toContain('CPU');
    // a later refresh is a new request the page makes by itself
    const request = await page.waitForRequest((r) => r.url().endsWith(`/api/agents/${agentId}/stats`), { timeout: 15_000 });
    expect(request.method()).toBe('GET');
  });

  it('refuses invalid JSON configuration in the page (nothing sent), then saves a valid one', async () => {
    const box = page.getByLabel('Configuration (JSON)');
    await expect.poll(() => box.inputValue()).toBe('{}');
    await box.fill('{"systemPrompt": "Be brief",');
    let puts = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith(`/api/agents/${agentId}/config`)) puts++;
    });
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => alert('This is not valid JSON').count()).toBe(1);
    expect(puts).toBe(0);
    expect((await owner.call('GET', `/api/agents/${agentId}/config`)).body.config).toEqual({});
    await box.fill('{"systemPrompt": "Be brief", "temperature": 0.2}');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => page.getByText('Configuration saved.').count()).toBe(1);
    expect(puts).toBe(1);
    expect((await owner.call('GET', `/api/agents/${agentId}/config`)).body.config).toEqual({ systemPrompt: 'Be brief', temperature: 0.2 });
  });

  it('adds a memory key and shows it', async () => {
    const memory = page.getByRole('region', { name: 'Memory' });
    await memory.getByLabel('Key').fill('favourite');
    await memory.getByLabel('Value (JSON or text)').fill('{"colour": "blue"}');
    await memory.getByRole('button', { name: 'Save memory' }).click();
    await expect.poll(() => memory.getByRole('row', { name: /favourite/ }).textContent()).toBe('favourite{"colour":"blue"}');
    expect((await owner.call('GET', `/api/memory?agentId=${agentId}`)).body.memory).toEqual({ favourite: { colour: 'blue' } });
  });

  it('installs a skill from the catalog', async () => {
    const skills = page.getByRole('region', { name: 'Skills' });
    await skills.getByText(/^Skill catalog \(\d+ skills\)$/).click();
    const first = skills.getByRole('button', { name: /^Install / }).first();
    await expect.poll(() => first.count()).toBe(1);
    const name = (await first.textContent())!.replace(/^Install /, '');
    await first.click();
    await expect.poll(() => skills.getByRole('list', { name: 'Installed skills' }).textContent()).toContain(name);
    const installed = await owner.call('GET', `/api/agent?action=skills&agentId=${agentId}`);
    expect(installed.body.skills).toHaveLength(1);
  });

  it("when the plan's skill limit is reached, installing shows the 429 sentence with the numbers", async () => {
    const skills = page.getByRole('region', { name: 'Skills' });
    const install = () => skills.getByRole('button', { name: /^Install / }).first();
    // starter allows 3 skills: two more, then one too many
    for (const n of [2, 3]) {
      await install().click();
      await expect.poll(() => skills.getByRole('list', { name: 'Installed skills' }).getByRole('listitem').count()).toBe(n);
    }
    await install().click();
    await expect.poll(() => skills.getByRole('alert').textContent()).toBe("You have reached your plan's limit (3 of 3 skills). Remove one or upgrade your plan. See plans");
    expect((await owner.call('GET', `/api/agent?action=skills&agentId=${agentId}`)).body.skills).toHaveLength(3);
  });

  it('verification: a bad attestation shows the sentence and the record stays unverified', async () => {
    const verification = page.getByRole('region', { name: 'Verification' });
    await verification.getByLabel('Verification type').selectOption('eas');
    await verification.getByLabel('Attestation UID').fill('not-an-attestation');
    await verification.getByRole('button', { name: 'Verify agent' }).click();
    await expect.poll(() => verification.getByRole('alert').textContent()).toMatch(/^Please check what you entered/);
    expect((await owner.call('GET', `/api/agents/${agentId}/verify`)).body.verified).toBe(false);
    expect(await verification.getByText('Verified').locator('..').textContent()).toBe('VerifiedNo');
  });

  it('stops the agent (sending now says it is stopped, the text stays), the buttons follow the status, starts it, restarts it and repairs it', async () => {
    const enabled = async () => {
      const names: string[] = [];
      for (const name of ['Start', 'Stop', 'Restart', 'Repair']) if (!(await page.getByRole('button', { name, exact: true }).isDisabled())) names.push(name);
      return names;
    };
    await expect.poll(enabled).toEqual(['Stop', 'Restart', 'Repair']);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(statusText, { timeout: 30_000 }).toBe('Status: stopped');
    await expect.poll(enabled).toEqual(['Start', 'Repair']);
    // the live stats follow the agent's status at once
    await expect.poll(() => page.getByRole('region', { name: 'Live stats' }).getByText('stopped', { exact: true }).count(), { timeout: 5_000 }).toBe(1);
    await page.getByLabel('Message').fill('Are you there?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => alert('The agent is stopped. Start it, then try again.').count()).toBe(1);
    // refused: the text is still there to send again
    expect(await page.getByLabel('Message').inputValue()).toBe('Are you there?');
    expect((await owner.call('GET', `/api/agents/${agentId}/messages`)).body.total).toBe(4);

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(statusText, { timeout: 30_000 }).toBe('Status: running');
    await page.getByRole('button', { name: 'Restart' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Restart: done.' }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(statusText, { timeout: 30_000 }).toBe('Status: running');
    await page.getByRole('button', { name: 'Repair' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Instance repaired' }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(statusText, { timeout: 30_000 }).toBe('Status: running');
    await screenshot(page, 'agents-detail');
  });

  it('when the provider fails while the agent answers, the chat shows the provider sentence', async () => {
    await expect.poll(() => page.getByText('Connected.').count(), { timeout: 20_000 }).toBe(1);
    t.service.provider.setBehaviour({ kind: 'error', status: 500 });
    await page.getByLabel('Message').fill('Still there?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => alert('A service we depend on did not answer').count(), { timeout: 30_000 }).toBe(1);
    t.service.provider.setBehaviour({ kind: 'reply' });
    expect(problems).toEqual([]);
  });

  it("draws the agent's activity from its stored events (messages per hour, the timeline with reasons) and CPU and memory sparklines of the live stats", async () => {
    // one event the run above could not make: a crash with its reason, two hours back
    const db = new pg.Client({ connectionString: t.service.databaseUrl });
    await db.connect();
    try {
      await db.query(`insert into agent_events (agent_id, user_id, kind, reason, at) values ($1, $2, 'crashed', 'exit code 137 (out of memory)', now() - interval '2 hours')`, [agentId, owner.id]);
    } finally {
      await db.end();
    }
    await page.reload();
    const activity = page.getByRole('region', { name: 'Activity' });
    const chart = activity.getByTestId('messages-chart');
    await expect.poll(() => chart.count()).toBe(1);
    const stored = (await owner.call('GET', `/api/agents/${agentId}/activity?hours=24`)).body;
    const sum = (k: 'answered' | 'failed') => stored.messagesPerHour.reduce((n: number, h: Record<string, number>) => n + h[k]!, 0);
    // the run above: two answers ("Hi there", "Back again"), then one the provider failed
    expect(sum('answered')).toBe(2);
    expect(sum('failed')).toBe(1);
    const data = JSON.parse((await chart.getAttribute('data-chart'))!);
    expect(data.x).toHaveLength(24);
    expect(data.series.map((x: { label: string }) => x.label)).toEqual(['Answered', 'Failed']);
    expect(data.series[0].values).toEqual(stored.messagesPerHour.map((h: { answered: number }) => h.answered));
    expect(data.series[1].values.reduce((n: number, v: number) => n + v, 0)).toBe(1);
    expect(await chart.locator('figcaption').textContent()).toContain('2 answered and 1 failed in the last 24 hours');
    expect(await chart.locator('canvas').count()).toBe(1);

    const timeline = activity.getByRole('list', { name: 'Activity timeline' });
    const crash = timeline.locator('li[data-kind="crashed"]');
    await expect.poll(() => crash.textContent()).toContain('Crashed');
    expect(await crash.textContent()).toContain('exit code 137 (out of memory)');
    const kinds = await timeline.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')));
    expect(kinds).toEqual(stored.events.map((e: { kind: string }) => e.kind));
    for (const kind of ['provisioned', 'stopped', 'started', 'repaired', 'message_failed']) expect(kinds).toContain(kind);

    // the sparklines gain a reading at each refresh of the live stats while the page is open
    const cpu = page.getByTestId('cpu-sparkline');
    const readings = async () => (JSON.parse((await cpu.getAttribute('data-chart').catch(() => null)) ?? '{"x":[]}') as { x: number[] }).x.length;
    await expect.poll(readings, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const memory = JSON.parse((await page.getByTestId('memory-sparkline').getAttribute('data-chart'))!);
    expect(memory.series[0].values.every((v: number) => v >= 0 && v <= 100)).toBe(true);
    expect(await cpu.locator('figcaption').textContent()).toMatch(/^CPU \(percent\)Now \d+\.\d%, highest \d+\.\d% over \d+ readings since this page opened\.$/);
    await activity.scrollIntoViewIfNeeded();
    await screenshot(page, 'agents-activity');
    expect(problems).toEqual([]);
  });

  it('at phone width (360 px) the agent page needs no sideways scrolling', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Ada', level: 1 }).count()).toBe(1);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await page.goto(`${t.base}/agents`);
    await expect.poll(() => page.getByRole('link', { name: 'Ada' }).count()).toBe(1);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(problems).toEqual([]);
  });

  it('without a paid plan the list says so, the provision form is disabled, and a link leads to the plans', async () => {
    const free = await signedUpUser(t.base, 'free');
    const ctx = await t.chromium.browser.newContext();
    await signInContext(ctx, t.base, free);
    const { page: p, problems: pr } = await openPage(ctx, t.base);
    await p.goto(`${t.base}/agents`);
    await expect.poll(() => p.getByText('0 agents').count()).toBe(1);
    // the list and the allowance are two requests: the plan's line comes with the second
    await expect.poll(() => p.getByText('Agents need a paid plan.').count()).toBe(1);
    // the form says why before anyone tries, and cannot be sent
    expect(await p.getByRole('button', { name: 'Provision agent' }).isDisabled()).toBe(true);
    expect(await p.getByText('Provisioning needs a paid plan: choose one on the pricing page.').count()).toBe(1);
    expect((await free.call('GET', '/api/agents')).body.count).toBe(0);
    // the page leads to pricing
    await p.getByRole('link', { name: 'See plans' }).click();
    await p.waitForURL(`${t.base}/pricing`);
    await expect.poll(() => p.getByRole('heading', { name: 'Plans and billing', level: 1 }).count()).toBe(1);
    await expect.poll(() => p.getByRole('button', { name: 'Choose Starter' }).count()).toBe(1);
    expect(pr).toEqual([]);
    await ctx.close();
  });

  it('removes the agent at the limit after a confirmation, and a new one can be provisioned at once', async () => {
    await page.goto(`${t.base}/agents/${agentId}`);
    const region = page.getByRole('region', { name: 'Remove agent' });
    await region.getByRole('button', { name: 'Remove agent' }).click();
    await expect.poll(() => region.getByText('Remove Ada and all its data for good?').count()).toBe(1);
    await screenshot(page, 'agents-remove-confirm');
    await region.getByRole('button', { name: 'Yes, remove this agent' }).click();
    await page.waitForURL(`${t.base}/agents?removed=1`);
    await expect.poll(() => page.getByText('0 of 1 agents').count()).toBe(1);
    expect((await owner.call('GET', '/api/agents')).body.count).toBe(0);
    expect((await owner.call('GET', `/api/agents/${agentId}`)).status).toBe(404);
    await page.getByLabel('Agent name').fill('Bea');
    await page.getByRole('button', { name: 'Provision agent' }).click();
    await expect.poll(() => page.getByText('1 of 1 agents').count()).toBe(1);
    expect((await owner.call('GET', '/api/agents')).body.agents).toEqual([expect.objectContaining({ name: 'Bea' })]);
  });

  it("another user's agent id shows the does-not-exist sentence", async () => {
    const other = await signedUpUser(t.base, 'other');
    const ctx = await t.chromium.browser.newContext();
    await signInContext(ctx, t.base, other);
    const { page: p, problems: pr } = await openPage(ctx, t.base);
    await p.goto(`${t.base}/agents/${agentId}`);
    await expect.poll(() => p.getByRole('alert').textContent()).toBe('That does not exist, or it is not yours.');
    expect(await p.getByText('Ada').count()).toBe(0);
    expect(pr).toEqual([]);
    await ctx.close();
  });
});
