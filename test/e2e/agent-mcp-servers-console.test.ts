import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, openPage, screenshot } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';
import { signInContext, subscribedUser, type ApiUser } from '../support/browser/api-user.js';
import { freePort } from '../support/free-port.js';
import { PRIVATE_TOKEN, startTestMcpServer, type TestMcpServer } from '../support/mcp/test-mcp-server.js';

/**
 * The agent page's MCP-servers panel (decision 0440) in a real Chromium against the service
 * process, with a real MCP server from the official SDK on 127.0.0.1 (private targets allowed).
 */
describe.skipIf(chromiumMissing)(`the MCP-servers panel in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium({ RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_AUTH: '100000', MCP_ALLOW_PRIVATE_TARGETS: 'true', MCP_CALL_TIMEOUT_MS: '5000' });
  let mcp: TestMcpServer;
  let owner: ApiUser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let agentId = '';

  beforeAll(async () => {
    mcp = await startTestMcpServer();
    owner = await subscribedUser(t.base, 'starter', 'mcp');
    const provisioned = await owner.call('POST', '/api/agents/provision', { name: 'Toolsmith' });
    expect(provisioned.status).toBe(201);
    agentId = provisioned.body.agent.id;
    context = await t.chromium.browser.newContext();
    await signInContext(context, t.base, owner);
    ({ page, problems } = await openPage(context, t.base));
  });
  afterAll(async () => {
    await context?.close();
    await mcp?.close();
  });

  const panel = () => page.getByRole('region', { name: 'MCP servers' });
  const form = () => page.getByRole('form', { name: 'Add an MCP server' });
  const row = (name: string) => panel().getByRole('row', { name: new RegExp(`^${name}\\b`) });

  it('adds a server with a header and an allowlist, shows its status and tools but never the header value, and the API agrees', async () => {
    await page.goto(`${t.base}/agents/${agentId}`);
    await expect.poll(() => panel().getByText('No MCP server yet.').count()).toBe(1);
    await form().getByLabel('Server name').fill('vault');
    await form().getByLabel('Server URL').fill(mcp.privateUrl);
    await form().getByLabel('Header name (optional)').fill('Authorization');
    await form().getByLabel('Header value').fill(PRIVATE_TOKEN);
    await form().getByRole('button', { name: 'Add MCP server' }).click();
    await expect.poll(() => panel().getByText('Added “vault”: 1 tools.').count()).toBe(1);
    await expect.poll(async () => (await row('vault').count()) === 1 && (await row('vault').textContent())).toContain('whoami');
    const text = (await row('vault').textContent())!;
    expect(text).toContain('ok');
    expect(text).toContain('Authorization');
    expect(await page.content()).not.toContain('s3cret');
    expect((await owner.call('GET', `/api/agents/${agentId}/mcp-servers`)).body.servers).toEqual([expect.objectContaining({ name: 'vault', status: 'ok', tools: ['whoami'], headers: ['Authorization'] })]);

    await form().getByLabel('Server name').fill('tools');
    await form().getByLabel('Server URL').fill(mcp.url);
    await form().getByLabel('Allowed tools (optional, comma-separated)').fill('echo, fail');
    await form().getByRole('button', { name: 'Add MCP server' }).click();
    await expect.poll(async () => (await row('tools').count()) === 1 && (await row('tools').textContent())).toContain('echo, fail');
    await screenshot(page, 'agent-mcp-servers');
  });

  it('shows an unreachable server with its error, explains the plan\'s limit and a taken name, removes and refreshes servers', async () => {
    const port = await freePort();
    await form().getByLabel('Server name').fill('down');
    await form().getByLabel('Server URL').fill(`http://127.0.0.1:${port}/mcp`);
    await form().getByRole('button', { name: 'Add MCP server' }).click();
    await expect.poll(async () => (await row('down').count()) === 1 && (await row('down').textContent())).toContain('MCP_SERVER_UNAVAILABLE');

    // starter: 3 servers an agent; a fourth is refused with the plan's limit, and nothing is added
    await form().getByLabel('Server name').fill('fourth');
    await form().getByLabel('Server URL').fill(mcp.url);
    await form().getByRole('button', { name: 'Add MCP server' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: "You have reached your plan's limit (3 of 3 MCP servers)" }).count()).toBe(1);
    expect((await owner.call('GET', `/api/agents/${agentId}/mcp-servers`)).body.servers.map((s: { name: string }) => s.name)).toEqual(['vault', 'tools', 'down']);

    await panel().getByRole('button', { name: 'Remove down' }).click();
    await expect.poll(() => row('down').count()).toBe(0);
    // a name taken: explained, nothing added
    await form().getByLabel('Server name').fill('tools');
    await form().getByLabel('Server URL').fill(mcp.url);
    await form().getByRole('button', { name: 'Add MCP server' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'This agent already has an MCP server named tools. Choose another name.' }).count()).toBe(1);
    await panel().getByRole('button', { name: 'Refresh tools' }).click();
    await expect.poll(() => panel().getByText('Refreshed “tools”: 2 tools.').count()).toBe(1);
    expect((await owner.call('GET', `/api/agents/${agentId}/mcp-servers`)).body.servers.map((s: { name: string }) => s.name)).toEqual(['vault', 'tools']);
    expect(problems).toEqual([]);
  });
});
