import type { BrowserContext } from 'playwright-core';

/** A user made through the public HTTP API, signed in, with what a client needs to call as them. */
export interface ApiUser {
  id: string;
  email: string;
  session: string;
  csrf: string;
  /** Calls the API as this user (the session cookie, and the CSRF header on writes). */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

let seq = 0;

function cookieValue(res: Response, name: string): string {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const eq = pair!.indexOf('=');
    if (pair!.slice(0, eq).trim() === name) return pair!.slice(eq + 1);
  }
  throw new Error(`no ${name} cookie in the sign-in answer`);
}

/**
 * Registers and signs in a new user through the public HTTP API, from Node (no page involved): a
 * browser test then starts signed in (signInContext) without going through the sign-in pages.
 */
export async function signedUpUser(base: string, label = 'agents', email = `${label}-${process.pid}-${Date.now()}-${++seq}@example.test`): Promise<ApiUser> {
  const password = 'correct horse battery';
  const reg = await fetch(`${base}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password, name: label }) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const res = await fetch(`${base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string } };
  const session = cookieValue(res, 'session');
  const csrf = cookieValue(res, 'csrf');
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { cookie: `session=${session}; csrf=${csrf}`, 'x-csrf-token': csrf };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text
    }
    return { status: r.status, body: parsed as any };
  };
  return { id: user.id, email, session, csrf, call };
}

/**
 * A user with a paid plan bought through the development processor as a browser would: the
 * checkout's URL is its "hosted page", and opening it completes the purchase.
 */
export async function subscribedUser(base: string, plan: 'starter' | 'pro' | 'scale' = 'starter', label = 'agents'): Promise<ApiUser> {
  const user = await signedUpUser(base, label);
  const checkout = await user.call('POST', '/api/billing', { action: 'create-checkout', plan });
  if (checkout.status !== 200) throw new Error(`create-checkout: ${checkout.status} ${JSON.stringify(checkout.body)}`);
  const done = await fetch(checkout.body.url, { redirect: 'manual' });
  if (done.status !== 302) throw new Error(`checkout page: ${done.status} ${await done.text()}`);
  const billing = await user.call('GET', '/api/billing');
  if (billing.body.currentPlan !== plan) throw new Error(`the plan did not arrive: ${JSON.stringify(billing.body)}`);
  return user;
}

/** Puts the user's session (and CSRF cookie) into a browser context: its pages are signed in. */
export async function signInContext(context: BrowserContext, base: string, user: ApiUser): Promise<void> {
  await context.addCookies([
    { name: 'session', value: user.session, url: base, httpOnly: true, sameSite: 'Lax' },
    { name: 'csrf', value: user.csrf, url: base, sameSite: 'Lax' },
  ]);
}
