import type { BrowserContext } from 'playwright-core';

/** A user made through the public HTTP API, signed in, with what a client needs to call as them. */
export interface ApiUser {
  email: string;
  password: string;
  /** `session=<token>` for a Cookie header. */
  cookie: string;
  /** The session's own token, for the browser context. */
  sessionToken: string;
}

let counter = 0;

/**
 * POST /api/register then POST /api/auth/callback/credentials: the session cookie comes from
 * set-cookie. Lets a browser test start signed in without going through the sign-in pages.
 */
export async function createApiUser(base: string, prefix = 'user', email = `${prefix}-${process.pid}-${Date.now()}-${++counter}@example.test`): Promise<ApiUser> {
  const password = 'correct-horse-battery-staple';
  const reg = await fetch(`${base}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password, name: 'Test User' }) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const signIn = await fetch(`${base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (signIn.status !== 200) throw new Error(`sign in: ${signIn.status} ${await signIn.text()}`);
  const session = signIn.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('session='));
  if (!session) throw new Error(`sign in set no session cookie: ${signIn.headers.getSetCookie().join(' | ')}`);
  return { email, password, cookie: session, sessionToken: session.slice('session='.length) };
}

/** Puts the user's session cookie in a browser context, as the sign-in page would have. */
export async function signInContext(context: BrowserContext, base: string, user: ApiUser): Promise<void> {
  await context.addCookies([{ name: 'session', value: user.sessionToken, url: base, httpOnly: true, sameSite: 'Lax' }]);
}

/** A call as the user: the session cookie, and on a state-changing call the CSRF header of CONTRACT.md section 4. */
export async function callAs(base: string, user: ApiUser, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { cookie: user.cookie, accept: 'application/json' };
  if (method !== 'GET') {
    const csrf = await fetch(`${base}/api/auth/csrf`, { headers: { cookie: user.cookie } }).then((r) => r.json() as Promise<{ csrfToken: string }>);
    headers['x-csrf-token'] = csrf.csrfToken;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: kept as text */
  }
  return { status: res.status, body: parsed };
}
