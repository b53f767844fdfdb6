import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs the package when it is missing); never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export const chromiumMissing = existsSync(CHROMIUM_PATH)
  ? undefined
  : `no Chromium at ${CHROMIUM_PATH}: \`bash .ci/run\` installs Debian's chromium, or set CHROMIUM_PATH`;

/**
 * Headless Chromium with a fresh profile (playwright makes one per launch). The flags keep it off the network it would otherwise
 * reach for (updates, sync, Google lookups): this machine's network is closed, and a test must
 * talk only to the service it started.
 */
export interface Chromium {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  return {
    browser,
    async close() {
      // closing removes the fresh profile playwright made for this launch
      await browser.close().catch(() => {});
    },
  };
}

/**
 * A page that records what would show a broken console: uncaught errors, console errors (a CSP
 * violation is one) and requests to any origin but the service's.
 */
export async function openPage(context: BrowserContext, base: string): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(base).origin;
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    // A failed API call logs its status as a console error; the tests expect some of those (401, 402).
    // ERR_NETWORK_CHANGED is this machine's, not the console's: Chromium aborts what is in flight when
    // an interface appears or goes, and other test files add and remove them (the swarm's veth pairs,
    // dockerd's bridges). A page that breaks for it still fails its test on what it shows.
    if (msg.type() === 'error' && !/Failed to load resource: (the server responded with a status of \d+|net::ERR_NETWORK_CHANGED)/.test(msg.text())) problems.push(`console error: ${msg.text()}`);
  });
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol !== 'data:' && url.origin !== origin && `http://${url.host}` !== origin) problems.push(`third-party request: ${req.url()}`);
  });
  return { page, problems };
}

/** Saves a screenshot under test-results/screenshots (docs/screenshots keeps the committed ones). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join('test-results', 'screenshots', `${name}.png`), fullPage: true });
}
