import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { alertText, freshEmail, getInPage, registerThroughApi, signInWithForm } from '../support/browser/accounts.js';
import { chromiumMissing, openPage } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';
import { linkInMail } from '../support/browser/console-service.js';

const credentialsStatus = (base: string, email: string, password: string) =>
  fetch(`${base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) }).then((r) => r.status);

/**
 * Sign-in in the console: wrong passwords, where it goes afterwards (never off the site), the
 * keyboard alone, a forgotten password through the mail's link, a wallet (an injected EIP-1193
 * provider signing in Node), and deleting the account.
 */
describe.skipIf(chromiumMissing)(`sign-in in the console${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  // the code host's sign-in configured (nothing is asked of it until someone clicks), the identity provider's not
  const t = consoleInChromium({ RATE_LIMIT_AUTH: '1000', CODEHOST_CLIENT_ID: 'console-test-client', CODEHOST_CLIENT_SECRET: 'console-test-secret' });

  it('says a wrong password as a sentence and stays signed out', async () => {
    const email = freshEmail('wrongpw');
    await registerThroughApi(t.base, email, 'right-password-1');
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await signInWithForm(page, t.base, email, 'wrong-password-1');
    expect(await alertText(page)).toBe('That e-mail and password do not match an account.');
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect((await getInPage(page, '/api/auth/session')).user).toBeNull();
    // no wallet in this browser: no wallet button
    expect(await page.getByRole('button', { name: 'Sign in with a wallet' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the OAuth buttons GET /api/auth/providers names, and only those, on the sign-in page', async () => {
    const methods = await (await fetch(`${t.base}/api/auth/providers`)).json();
    expect(methods).toMatchObject({ password: true, codehost: true, idp: false });
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    {
      await page.goto(`${t.base}/signin`);
      const group = page.getByRole('group', { name: 'Other ways to sign in' });
      await expect.poll(() => group.getByRole('link').count()).toBe(1);
      // a full page load to the service's own route, which redirects to the code host
      expect(await group.getByRole('link', { name: 'Sign in with your code host account' }).getAttribute('href')).toBe('/api/auth/codehost');
      expect(await page.getByRole('link', { name: 'Sign in with your identity provider' }).count()).toBe(0);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  // six sign-ins in fresh browser contexts: 26 s once on a loaded 2-core machine, past 30 s another time
  it('honours a same-site next and ignores one that leaves the site', async () => {
    const email = freshEmail('next');
    await registerThroughApi(t.base, email, 'next-password-1');
    for (const [next, landing] of [
      ['/settings', '/settings'],
      ['/agents?tab=1', '/agents?tab=1'],
      ['//evil.example', '/agents'],
      ['/\\evil.example', '/agents'],
      ['https://evil.example/x', '/agents'],
      ['javascript:alert(1)', '/agents'],
    ] as const) {
      const context = await t.chromium.browser.newContext();
      const { page, problems } = await openPage(context, t.base);
      await signInWithForm(page, t.base, email, 'next-password-1', next);
      await page.waitForURL(`${t.base}${landing}`);
      expect(new URL(page.url()).origin, next).toBe(t.base);
      expect(problems, next).toEqual([]);
      await context.close();
    }
  }, 90_000);

  it('can be filled and submitted with the keyboard alone, and the start page then leads to the agents', async () => {
    const email = freshEmail('keyboard');
    await registerThroughApi(t.base, email, 'keyboard-password-1');
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/signin`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const emailId = await page.getByLabel('Email', { exact: true }).getAttribute('id');
    const passwordId = await page.getByLabel('Password', { exact: true }).getAttribute('id');
    // evaluateAll does not wait: nothing focused yet reads as null
    const focusedId = () => page.locator(':focus').evaluateAll((els) => (els[0] as { id?: string } | undefined)?.id ?? null);
    for (let i = 0; i < 15 && (await focusedId()) !== emailId; i++) await page.keyboard.press('Tab');
    expect(await focusedId()).toBe(emailId);
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    expect(await focusedId()).toBe(passwordId);
    await page.keyboard.type('keyboard-password-1');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${t.base}/agents`);
    // signed in, the start page goes on to the agents
    await page.goto(`${t.base}/`);
    await page.waitForURL(`${t.base}/agents`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('resets a forgotten password through the mail link; the new one signs in, the old one no longer', async () => {
    const email = freshEmail('forgot');
    await registerThroughApi(t.base, email, 'old-password-1');
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/signin`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${t.base}/forgot-password`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').getByText(/reset link has been sent/).waitFor();
    const link = await linkInMail(t.service.smtp, email, '/reset-password?token=');
    expect(link.startsWith(`${t.base}/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByLabel('New password').fill('new-password-2');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    expect(await credentialsStatus(t.base, email, 'old-password-1')).toBe(401);
    // the link is spent
    await page.goto(link);
    await page.getByLabel('New password').fill('third-password-3');
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await alertText(page)).toContain('This link is no longer valid');
    // the new password signs in from the page's link
    await page.goto(`${t.base}/signin`);
    await signInWithForm(page, t.base, email, 'new-password-2');
    await page.waitForURL(`${t.base}/agents`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs in with a wallet: the injected provider signs the SIWE message for this site on Base', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    const signed: string[] = [];
    await page.exposeFunction('__testWalletSign', async (hex: `0x${string}`) => {
      signed.push(Buffer.from(hex.slice(2), 'hex').toString('utf8'));
      return account.signMessage({ message: { raw: hex } });
    });
    await page.addInitScript((address: string) => {
      const w = globalThis as unknown as { ethereum: unknown; __testWalletSign(hex: string): Promise<string> };
      w.ethereum = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
          if (method === 'personal_sign') {
            if ((params?.[1] as string).toLowerCase() !== address.toLowerCase()) throw new Error('wrong account');
            return w.__testWalletSign(params![0] as string);
          }
          throw new Error(`unsupported ${method}`);
        },
      };
    }, account.address);
    await page.goto(`${t.base}/signin?next=%2Fsettings`);
    await page.getByRole('button', { name: 'Sign in with a wallet' }).click();
    await page.waitForURL(`${t.base}/settings`);
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    expect(signed).toHaveLength(1);
    const host = new URL(t.base).host;
    expect(signed[0]).toContain(`${host} wants you to sign in with your Ethereum account:\n${account.address}`);
    expect(signed[0]).toContain('Chain ID: 8453');
    const session = await getInPage(page, '/api/auth/session');
    expect(session.user.email).toBe(`${account.address.toLowerCase()}@wallet.${new URL(t.base).hostname}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says so when the wallet refuses to sign, and stays signed out', async () => {
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await page.addInitScript(() => {
      (globalThis as unknown as { ethereum: unknown }).ethereum = {
        async request({ method }: { method: string }) {
          if (method === 'eth_requestAccounts') return ['0x1111111111111111111111111111111111111111'];
          throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
        },
      };
    });
    await page.goto(`${t.base}/signin`);
    await page.getByRole('button', { name: 'Sign in with a wallet' }).click();
    expect(await alertText(page)).toContain('The wallet did not sign the message');
    expect((await getInPage(page, '/api/auth/session')).user).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('deletes the account only after the confirmation, then is signed out on the start page', async () => {
    const email = freshEmail('leaver');
    await registerThroughApi(t.base, email, 'leaver-password-1');
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await signInWithForm(page, t.base, email, 'leaver-password-1', '/settings');
    await page.waitForURL(`${t.base}/settings`);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    // cancelling keeps everything
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await credentialsStatus(t.base, email, 'leaver-password-1')).toBe(200);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('button', { name: 'Yes, delete my account for good' }).click();
    await page.waitForURL(`${t.base}/`);
    await page.getByRole('heading', { name: 'Agent Host' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).waitFor();
    expect((await getInPage(page, '/api/auth/session')).user).toBeNull();
    expect(await credentialsStatus(t.base, email, 'leaver-password-1')).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });
});
