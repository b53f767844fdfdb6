import { describe, expect, it } from 'vitest';
import { alertText, freshEmail, getInPage, profileOf, registerThroughApi, sessionCookie, signInWithForm } from '../support/browser/accounts.js';
import { chromiumMissing, openPage, screenshot } from '../support/browser/chromium.js';
import { consoleInChromium } from '../support/browser/console-in-chromium.js';
import { linkInMail } from '../support/browser/console-service.js';

/**
 * One person's whole account life in the console, in a real Chromium against the real service:
 * sign-up with a friend's referral code, the verification mail's link, sign-in, settings (name,
 * password, notifications, an API key shown once that really works, heartbeat), sign-out.
 */
describe.skipIf(chromiumMissing)(`accounts in the console${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, async () => {
  const t = consoleInChromium({ RATE_LIMIT_AUTH: '1000' });

  // a whole account life (some forty page steps, three password hashes): 34 s alone on a loaded
  // 2-core machine, past the 30 s default; every step inside waits on what it expects, not on time
  it('signs up with a referral code, verifies the e-mail from the mail, signs in and manages the settings', async () => {
    // a friend who shares a referral link
    const friend = freshEmail('friend');
    await registerThroughApi(t.base, friend, 'friend-password-1');
    const friendCookie = await sessionCookie(t.base, friend, 'friend-password-1');
    const before = await profileOf(t.base, { cookie: friendCookie });
    const code = before.body.referralCode as string;
    expect(code).toMatch(/^[A-Za-z0-9-]+$/);

    const context = await t.chromium.browser.newContext({ viewport: { width: 360, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.base });
    const { page, problems } = await openPage(context, t.base);

    // sign up: the referral code comes from the link
    const email = freshEmail('newcomer');
    await page.goto(`${t.base}/signup?ref=${code}`);
    await expect.poll(() => page.getByLabel('Referral code (optional)').inputValue()).toBe(code);
    await page.getByLabel('Name', { exact: true }).fill('Ada Newcomer');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('first-password-1');
    await screenshot(page, 'accounts-signup');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

    // the verification mail's link opens the console's page
    const link = await linkInMail(t.service.smtp, email, '/verify-email?token=');
    expect(link.startsWith(`${t.base}/verify-email?token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { name: 'E-mail verified' }).waitFor();
    // the link is spent: opening it again says so
    await page.goto(link);
    expect(await alertText(page)).toContain('no longer valid');
    // both sides got the referral credits
    expect(((await profileOf(t.base, { cookie: friendCookie })).body.credits as number) > (before.body.credits as number)).toBe(true);

    // sign in from the verification page's link
    await page.goto(`${t.base}/signin`);
    await screenshot(page, 'accounts-signin');
    await signInWithForm(page, t.base, email, 'first-password-1');
    await page.waitForURL(`${t.base}/agents`);

    // settings: the profile as the API has it
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(`${t.base}/settings`);
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('Ada Newcomer');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await page.getByText('E-mail verified').waitFor();
    const mine = await getInPage(page, '/api/settings');
    expect(mine.credits).toBeGreaterThan(0);
    expect(await page.getByLabel('Your referral link').inputValue()).toBe(`${t.base}/signup?ref=${encodeURIComponent(mine.referralCode)}`);
    for (const h of ['Profile', 'Notifications', 'Password', 'API keys', 'Heartbeat', 'Delete account']) await page.getByRole('heading', { name: h, exact: true }).waitFor();
    await screenshot(page, 'accounts-settings');
    // 360 px wide: nothing sticks out sideways
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);

    // change the name
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile saved.').waitFor();
    expect((await getInPage(page, '/api/settings')).name).toBe('Ada Lovelace');

    // notifications: a checkbox saved is what the API keeps
    await page.getByRole('checkbox', { name: /Product news/ }).check();
    await page.getByRole('button', { name: 'Save notifications' }).click();
    await page.getByText('Notification preferences saved.').waitFor();
    expect((await getInPage(page, '/api/settings')).notifications).toMatchObject({ productUpdates: true, billing: false });

    // a wrong current password says so and changes nothing
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password').fill('second-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('Your current password is not right.');
    expect((await fetch(`${t.base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'second-password-2' }) })).status).toBe(401);
    // the right one changes it
    await page.getByLabel('Current password').fill('first-password-1');
    await page.getByLabel('New password').fill('second-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/Password changed/).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await sessionCookie(t.base, email, 'second-password-2');

    // an API key: an empty name is refused by the form itself, a good one is shown once and works
    await page.getByLabel('Key name').fill('deploy script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const keyField = page.getByLabel('Your new API key');
    await keyField.waitFor();
    const key = await keyField.inputValue();
    expect(key).toMatch(/^sk_/);
    expect(await keyField.getAttribute('readonly')).not.toBeNull();
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    const row = page.getByRole('row', { name: /deploy script/ });
    await row.waitFor();
    expect(await row.textContent()).not.toContain(key);
    expect(await row.textContent()).toContain('Never');
    // the key acts as its owner from outside the browser
    const byKey = await profileOf(t.base, { authorization: `Bearer ${key}` });
    expect(byKey.status).toBe(200);
    expect(byKey.body.email).toBe(email);
    // after a reload the raw key is gone for good
    await page.reload();
    await page.getByRole('row', { name: /deploy script/ }).waitFor();
    expect(await page.getByLabel('Your new API key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    // deleting it: out of the list, and the key stops working
    await page.getByRole('row', { name: /deploy script/ }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('You have no API keys.').waitFor();
    await expect.poll(async () => (await profileOf(t.base, { authorization: `Bearer ${key}` })).status).toBe(401);

    // heartbeat: a bad frequency is explained and nothing is saved; a good one is kept
    await expect.poll(() => page.getByLabel('Frequency').inputValue()).toBe('3h');
    await page.getByLabel('Frequency').fill('every now and then');
    await page.getByRole('button', { name: 'Save heartbeat' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringContaining('Please check what you entered'));
    expect((await getInPage(page, '/api/heartbeat')).heartbeat).toMatchObject({ frequency: '3h', enabled: false });
    await page.getByLabel('Frequency').fill('30m');
    await page.getByRole('checkbox', { name: 'Enabled' }).check();
    await page.getByRole('button', { name: 'Save heartbeat' }).click();
    await page.getByText('Heartbeat saved.').waitFor();
    expect((await getInPage(page, '/api/heartbeat')).heartbeat).toMatchObject({ frequency: '30m', enabled: true });
    await page.getByRole('button', { name: 'Reset to defaults' }).click();
    await page.getByText('Heartbeat reset to the defaults.').waitFor();
    await expect.poll(() => page.getByLabel('Frequency').inputValue()).toBe('3h');

    // sign out: settings then asks to sign in, with a way back here
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.base}/signin`);
    await page.goto(`${t.base}/settings`);
    await page.getByRole('heading', { name: 'Please sign in' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/signin\?next=%2Fsettings$/);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('second-password-2');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${t.base}/settings`);
    await page.getByRole('heading', { name: 'Profile' }).waitFor();

    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('refuses a used e-mail and an unknown referral code with sentences, creating nothing', async () => {
    const taken = freshEmail('taken');
    await registerThroughApi(t.base, taken, 'taken-password-1');
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    await page.goto(`${t.base}/signup`);
    await page.getByLabel('Email', { exact: true }).fill(taken);
    await page.getByLabel('Password', { exact: true }).fill('another-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await alertText(page)).toContain('An account with this e-mail already exists');
    // the old password still signs in: nothing was overwritten
    await sessionCookie(t.base, taken, 'taken-password-1');

    const fresh = freshEmail('badref');
    await page.getByLabel('Email', { exact: true }).fill(fresh);
    await page.getByLabel('Referral code (optional)').fill('NO-SUCH-CODE');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('That referral code does not exist. Check it, or leave it empty.');
    expect(await page.getByRole('heading', { name: 'Check your e-mail' }).count()).toBe(0);
    const signIn = await fetch(`${t.base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: fresh, password: 'another-password-1' }) });
    expect(signIn.status).toBe(401);

    // a verification link without a token, and one with a made-up token
    await page.goto(`${t.base}/verify-email`);
    await page.getByText('This page needs the link from the mail').waitFor();
    await page.goto(`${t.base}/verify-email?token=${'x'.repeat(40)}`);
    expect(await alertText(page)).toContain('This link is no longer valid');
    expect(problems).toEqual([]);
    await context.close();
  });
  it('sends the verification link again, from the sign-up page and after an e-mail change in the settings', async () => {
    const context = await t.chromium.browser.newContext();
    const { page, problems } = await openPage(context, t.base);
    const email = freshEmail('resend');
    const mailsTo = (to: string) => t.service.smtp.messages.filter((m) => m.envelope.to.includes(to) && m.text.includes('/verify-email?token=')).length;
    await page.goto(`${t.base}/signup`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('resend-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await linkInMail(t.service.smtp, email, '/verify-email?token=');
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByRole('status').getByText(/a verification link has been sent/).waitFor();
    await expect.poll(() => mailsTo(email)).toBe(2);

    // the name defaults to the e-mail; the address is not verified yet
    await signInWithForm(page, t.base, email, 'resend-password-1', '/settings');
    await page.waitForURL(`${t.base}/settings`);
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe(email);
    await page.getByText('E-mail not verified').waitFor();

    // an address someone else has is refused, and nothing changes
    const other = freshEmail('other');
    await registerThroughApi(t.base, other, 'other-password-1');
    await page.getByLabel('Email', { exact: true }).fill(other);
    await page.getByRole('button', { name: 'Save profile' }).click();
    expect(await alertText(page)).toContain('An account with this e-mail already exists');
    expect((await getInPage(page, '/api/settings')).email).toBe(email);

    // a new address: saved, unverified, its own link verifies it
    const moved = freshEmail('moved');
    await page.getByLabel('Email', { exact: true }).fill(moved);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText(/We sent a link to your new address/).waitFor();
    expect((await getInPage(page, '/api/settings')).email).toBe(moved);
    await page.getByText('E-mail not verified').waitFor();
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByRole('status').getByText(/a verification link has been sent/).waitFor();
    await expect.poll(() => mailsTo(moved)).toBe(2);
    await page.goto(await linkInMail(t.service.smtp, moved, '/verify-email?token='));
    await page.getByRole('heading', { name: 'E-mail verified' }).waitFor();
    await page.getByRole('link', { name: 'Go to your agents' }).waitFor();
    await page.goto(`${t.base}/settings`);
    await page.getByText('E-mail verified').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
