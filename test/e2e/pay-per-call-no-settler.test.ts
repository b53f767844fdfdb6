import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { deployEip3009Token } from '../support/chain/eip3009-token.js';
import { startLocalChain, type LocalChain } from '../support/chain/local-chain.js';
import { chromiumMissing, openPage } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';

/**
 * The "Pay per call" page of a service that takes on-chain payments but settles no signed ones (no
 * MPP_SETTLER_PRIVATE_KEY): the prices are shown, the page says a standard client cannot pay, and
 * it offers no x402 code that would fail.
 */
describe.skipIf(chromiumMissing)(`the Pay per call page without a settler, in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  let chain: LocalChain;
  const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
  const t = consoleInChromium(async () => {
    chain = await startLocalChain();
    const token = await deployEip3009Token(chain);
    return { MPP_RPC_URL: chain.rpcUrl, MPP_TOKEN_ADDRESS: token.address, MPP_RECIPIENT: RECIPIENT, MPP_PRICE_GENERATE_TEXT: '0.01', MPP_RPC_TIMEOUT_MS: '5000' };
  });
  afterAll(() => chain?.stop());

  it('shows the prices, says a standard client cannot pay, and offers no code', async () => {
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/pay-per-call`);
    const prices = page.getByRole('table', { name: 'Price of one call of each gateway plugin' });
    await expect.poll(() => prices.getByRole('row').count()).toBe(5);
    const row = prices.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'generate-text' }) });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['0.01', expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), 'Base (eip155:8453)', RECIPIENT]);
    expect(await page.getByRole('status').filter({ hasText: 'This service does not settle signed payments' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Copy code' }).count()).toBe(0);
    expect(await page.getByTestId('x402-snippet').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
