import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';

/** A fresh e-mail address for one test. */
export const freshEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.test`;

/** Registers a user straight through the API (no browser), as another client would. */
export async function registerThroughApi(base: string, email: string, password: string, extra: { name?: string; referralCode?: string } = {}): Promise<void> {
  const res = await fetch(`${base}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password, ...extra }) });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
}

/** Signs in through the API and returns the cookie header of that session. */
export async function sessionCookie(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`sign in ${email}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** GET /api/settings with a session cookie or an `Authorization` header. */
export async function profileOf(base: string, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/settings`, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Signs in through the console's form. */
export async function signInWithForm(page: Page, base: string, email: string, password: string, next?: string): Promise<void> {
  await page.goto(`${base}/signin${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The text of the page's alert (the error sentence), once there is one. */
export async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert');
  await alert.first().waitFor();
  return (await alert.first().textContent()) ?? '';
}

/** A GET from inside the page (its cookies), answered as JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function getInPage(page: Page, path: string): Promise<any> {
  return page.evaluate((p) => fetch(p).then((r) => r.json()), path);
}
