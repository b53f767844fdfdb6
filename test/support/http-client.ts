import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Pool } from 'pg';

export interface SignedIn {
  id: string;
  email: string;
  password: string;
  cookie: string;
  csrf: string;
  /** Headers for a state-changing call as the browser would send it. */
  headers: Record<string, string>;
}

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}@example.test`;

/** Registers and signs in through the real endpoints; returns what a browser would hold. */
export async function signUpAndIn(app: FastifyInstance, overrides: { email?: string; password?: string; name?: string; referralCode?: string } = {}): Promise<SignedIn> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const reg = await app.inject({ method: 'POST', url: '/api/register', payload: { email, password, name: overrides.name, referralCode: overrides.referralCode } });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  return signIn(app, email, password);
}

/**
 * Registers, opens the verification link mailed to the address (as its owner would), and signs in.
 * An address in ADMIN_EMAILS or TESTER_EMAILS grants its rights only once verified.
 */
export async function signUpVerifiedAndIn(app: FastifyInstance, owner: Pool, overrides: { email?: string; password?: string; name?: string; referralCode?: string } = {}): Promise<SignedIn> {
  const user = await signUpAndIn(app, overrides);
  await verifyEmail(app, owner, user.email);
  return user;
}

/** Opens the newest verification link mailed to `email` (GET /api/auth/verify-email); throws unless it answers 200. */
export async function verifyEmail(app: FastifyInstance, owner: Pool, email: string): Promise<void> {
  const mail = await lastMailTo(owner, email);
  if (!mail) throw new Error(`no mail to ${email}`);
  const res = await app.inject({ method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(tokenFrom(mail.text))}` });
  if (res.statusCode !== 200) throw new Error(`verify-email failed: ${res.statusCode} ${res.body}`);
}

export async function signIn(app: FastifyInstance, email: string, password: string): Promise<SignedIn> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/callback/credentials', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const session = res.cookies.find((c) => c.name === 'session')!;
  const csrf = res.cookies.find((c) => c.name === 'csrf')!;
  const cookie = `session=${session.value}; csrf=${csrf.value}`;
  return { id: res.json().user.id, email, password, cookie, csrf: csrf.value, headers: { cookie, 'x-csrf-token': csrf.value } };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function call(app: FastifyInstance, opts: InjectOptions) {
  const res = await app.inject(opts);
  return { status: res.statusCode, body: res.body ? safeJson(res.body) : undefined, headers: res.headers, cookies: res.cookies };
}

const safeJson = (s: string) => {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
};

/** The newest development mail to `to`, read from the outbox table where the default mailer keeps it. */
export async function lastMailTo(owner: Pool, to: string): Promise<{ subject: string; text: string } | null> {
  const { rows } = await owner.query(`select payload from outbox where topic = 'mail' and payload->>'to' = $1 order by id desc limit 1`, [to]);
  return rows[0]?.payload ?? null;
}

export const tokenFrom = (text: string): string => {
  const m = /token=([A-Za-z0-9_%-]+)/.exec(text);
  if (!m) throw new Error('no token in mail');
  return decodeURIComponent(m[1]!);
};
