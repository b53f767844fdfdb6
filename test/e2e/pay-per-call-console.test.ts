import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { deployEip3009Token, type Eip3009Token } from '../support/chain/eip3009-token.js';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain.js';
import { startRpcSwitch } from '../support/chain/rpc-switch.js';
import { chromiumMissing, openPage, screenshot } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';

/**
 * The "Pay per call" page in a real Chromium against the real service process, paid on a real
 * chain (anvil, chain 8453, a USDC-shaped EIP-3009 token) behind a node the test takes down and
 * brings back: while the node is silent no payment is offered and the page says so; once it
 * answers, each plugin's price, token, network and recipient as the discovery document lists them,
 * and the copy button copies the `@x402/fetch` code shown, which, run by Node as a user would run
 * it, pays the gateway and is served.
 */
describe.skipIf(chromiumMissing)(`the Pay per call page in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  let chain: LocalChain;
  let rpc: Awaited<ReturnType<typeof startRpcSwitch>>;
  let token: Eip3009Token;
  const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
  const SETTLER_KEY = generatePrivateKey();
  const t = consoleInChromium(async () => {
    chain = await startLocalChain();
    rpc = await startRpcSwitch(chain.rpcUrl);
    // the node is silent first: the service cannot tell its chain, so no payment is offered
    rpc.setUp(false);
    token = await deployEip3009Token(chain);
    await chain.client.test.setBalance({ address: privateKeyToAccount(SETTLER_KEY).address, value: 10n ** 19n });
    return {
      MPP_RPC_URL: rpc.url,
      MPP_TOKEN_ADDRESS: token.address,
      MPP_RECIPIENT: RECIPIENT,
      MPP_SETTLER_PRIVATE_KEY: SETTLER_KEY,
      MPP_PRICE_GENERATE_TEXT: '0.01',
      MPP_PRICE_TTS: '0.025',
      MPP_RPC_TIMEOUT_MS: '5000',
      RATE_LIMIT_GATEWAY: '100000',
    };
  });
  afterAll(async () => {
    await rpc?.close();
    await chain?.stop();
  });

  const discovery = async () => (await fetch(`${t.base}/api/v1/gateway/discovery/resources`)).json() as Promise<{ items: { metadata: Record<string, string> }[] }>;
  const balanceOf = (a: Address) => chain.client.readContract({ address: token.address, abi: token.abi, functionName: 'balanceOf', args: [a] }) as Promise<bigint>;
  let copied = '';

  it('while no payment is offered, says so plainly and offers no code', async () => {
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pay per call' }).click();
    await page.waitForURL(`${t.base}/pay-per-call`);
    await expect.poll(() => page.getByRole('heading', { name: 'Pay per call', level: 1 }).count()).toBe(1);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Payments per call are not offered by this service right now' }).count()).toBe(1);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Copy code' }).count()).toBe(0);
    expect((await discovery()).items).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('once the node answers, shows each plugin with the listed price, token, network and recipient, and copies the code shown', async () => {
    rpc.setUp(true);
    const listed = (await discovery()).items.map((i) => i.metadata);
    expect(listed.map((m) => m.plugin).sort()).toEqual(['agent', 'generate-text', 'stt', 'tts']);
    const context = await t.chromium.browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.base });
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/pay-per-call`);
    const prices = page.getByRole('table', { name: 'Price of one call of each gateway plugin' });
    await expect.poll(() => prices.getByRole('row').count()).toBe(5);
    for (const m of listed) {
      const cells = await prices.getByRole('row').filter({ has: page.getByRole('rowheader', { name: m.plugin }) }).getByRole('cell').allTextContents();
      expect(cells).toEqual([`${m.price} USD Coin`, `USD Coin ${token.address}`, 'Base (eip155:8453)', RECIPIENT]);
    }
    expect(listed.find((m) => m.plugin === 'generate-text')).toMatchObject({ price: '0.01', amount: '10000', asset: token.address, payTo: RECIPIENT, network: 'eip155:8453' });

    // the code shown is for generate-text first; the copy button copies exactly that
    const snippet = page.getByTestId('x402-snippet');
    const shown = (await snippet.textContent())!;
    expect(shown).toContain(`await pay('${t.base}/api/v1/gateway', {`);
    expect(shown).toContain(`'X-Payment-Method': 'mpp'`);
    expect(shown).toContain(`maxAmountPerPayment: '10000'`);
    await page.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Copied.' }).count()).toBe(1);
    copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(copied).toBe(shown);
    await screenshot(page, 'pay-per-call');

    // another plugin: its body and its price as the cap
    await page.getByLabel('Plugin').selectOption('tts');
    await expect.poll(() => snippet.textContent()).toContain(`maxAmountPerPayment: '25000'`);
    expect(await snippet.textContent()).toContain(`JSON.stringify({ plugin: 'tts', text: 'Hello' })`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the copied code, run by Node with a funded wallet, pays the gateway on chain and is served', async () => {
    expect(copied).not.toBe('');
    const payerKey = generatePrivateKey();
    const payer = privateKeyToAccount(payerKey).address;
    await chain.write(token, 'mint', [payer, 1_000_000n]);
    const before = await balanceOf(RECIPIENT);
    // inside the checkout, so its imports resolve as in a user's project with the packages installed
    const dir = join(import.meta.dirname, '..', '..', 'test-results', 'pay-per-call');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `pay-${process.pid}.mjs`);
    await writeFile(file, copied);
    const { stdout } = await promisify(execFile)(process.execPath, [file], { env: { ...process.env, PAYER_KEY: payerKey }, timeout: 60_000 });
    expect(stdout).toMatch(/^200 \{/);
    expect(await balanceOf(RECIPIENT)).toBe(before + 10_000n);
    expect(await balanceOf(payer)).toBe(1_000_000n - 10_000n);
  }, 90_000);
});
