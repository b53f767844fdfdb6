import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { call, lastMailTo, signUpAndIn, tokenFrom, uniqueEmail } from '../support/http-client.js';
import { deadUrl, startLocalOAuthProvider, type ProviderPerson } from '../support/oauth/local-oauth-provider.js';
import { startTestApp } from '../support/test-app.js';

const provider = await startLocalOAuthProvider();
// debug: the per-request lines (which carry the callback's URL, masked) are written at debug only
const { app, infra, logs } = await startTestApp({ env: { ...provider.env, LOG_LEVEL: 'debug' } });
const owner = infra.pools.owner;
const APP_URL = 'http://127.0.0.1:3000';

type Provider = 'codehost' | 'idp';
let subjects = 0;
const person = (p: Partial<ProviderPerson> = {}): ProviderPerson => ({ sub: `subject-${++subjects}-${Date.now()}`, email: uniqueEmail('oauth'), email_verified: true, ...p });

/** GET /api/auth/<provider> as the browser does it: the redirect, and the flow's cookie. */
async function start(a: FastifyInstance, which: Provider) {
  const res = await a.inject({ method: 'GET', url: `/api/auth/${which}` });
  const cookie = res.cookies.find((c) => c.name === `oauth_${which}`);
  return { res, location: res.headers.location as string | undefined, cookie };
}

/** Follows the redirect to the provider, which signs `who` in and sends the browser back with a code. */
async function atProvider(location: string, who: ProviderPerson): Promise<string> {
  provider.person = who;
  const res = await fetch(location, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  return back.pathname + back.search;
}

/** The whole round trip; returns the callback's answer and what the browser held. */
async function signInWith(which: Provider, who: ProviderPerson, a: FastifyInstance = app) {
  const s = await start(a, which);
  expect(s.res.statusCode).toBe(302);
  const callbackPath = await atProvider(s.location!, who);
  const callback = await a.inject({ method: 'GET', url: callbackPath, cookies: { [`oauth_${which}`]: s.cookie!.value } });
  return { callback, callbackPath, stateCookie: s.cookie!.value, session: callback.cookies.find((c) => c.name === 'session') };
}

const sessionUser = async (token: string) => (await call(app, { method: 'GET', url: '/api/auth/session', headers: { cookie: `session=${token}` } })).body.user;
const count = async (sql: string, params: unknown[] = []) => Number((await owner.query(`select count(*)::int as n from ${sql}`, params)).rows[0].n);
const identities = (userId: string) => owner.query(`select provider, subject, email, email_verified from oauth_identities where user_id = $1 order by provider`, [userId]).then((r) => r.rows);
const userRow = (email: string) => owner.query(`select id, email, name, password_hash, email_verified_at from users where email = $1`, [email]).then((r) => r.rows[0]);

async function verifiedAccount() {
  const u = await signUpAndIn(app);
  const verify = await call(app, { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(tokenFrom((await lastMailTo(owner, u.email))!.text))}` });
  expect(verify.status).toBe(200);
  return u;
}

/** Forgot-password, and the link from the mail (sent in the background: waited for). */
async function resetToken(email: string): Promise<string> {
  await call(app, { method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
  const mail = await vi.waitFor(
    async () => {
      const { rows } = await owner.query(`select payload from outbox where topic = 'mail' and payload->>'to' = $1 and payload->>'subject' ilike '%reset%' order by id desc limit 1`, [email]);
      return (rows[0]?.payload as { text: string } | undefined) ?? Promise.reject(new Error('no reset mail yet'));
    },
    { timeout: 5000, interval: 50 },
  );
  return tokenFrom(mail.text);
}

describe('starting an OAuth sign-in', () => {
  it('when codehost is configured, then a redirect to its authorization endpoint with state and PKCE S256, and the state in an HttpOnly cookie', async () => {
    const { res, location, cookie } = await start(app, 'codehost');
    expect(res.statusCode).toBe(302);
    const url = new URL(location!);
    expect(url.origin + url.pathname).toBe(`${provider.issuerUrl}/authorize`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('codehost-client');
    expect(url.searchParams.get('redirect_uri')).toBe(`${APP_URL}/api/auth/callback/codehost`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBe(cookie!.value);
    expect(url.searchParams.has('nonce')).toBe(false);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // the verifier never leaves the server
    const stored = await owner.query(`select code_verifier from oauth_flows where provider = 'codehost' order by created_at desc limit 1`);
    expect(location).not.toContain(stored.rows[0].code_verifier);
  });

  it('when idp is configured, then discovery finds its authorization endpoint, and the request carries a nonce and openid scope', async () => {
    const { res, location } = await start(app, 'idp');
    expect(res.statusCode).toBe(302);
    const url = new URL(location!);
    expect(url.origin + url.pathname).toBe(`${provider.issuerUrl}/authorize`);
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(url.searchParams.get('scope')).toContain('openid');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${APP_URL}/api/auth/callback/idp`);
  });
});

describe.each(['codehost', 'idp'] as const)('signing in with %s', (which) => {
  it('when no account has the e-mail, then one is created with the e-mail verified, no password, the identity recorded, and the session works', async () => {
    const who = person({ name: 'Grace Hopper' });
    const { callback, session } = await signInWith(which, who);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe(`${APP_URL}/`);
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const row = await userRow(who.email!);
    expect(row).toMatchObject({ email: who.email, name: 'Grace Hopper', password_hash: null });
    expect(row.email_verified_at).not.toBeNull();
    expect(await sessionUser(session!.value)).toMatchObject({ id: row.id, email: who.email });
    expect(await identities(row.id)).toEqual([{ provider: which, subject: who.sub, email: who.email, email_verified: true }]);
    // the flow's cookie is spent
    expect(callback.cookies.find((c) => c.name === `oauth_${which}`)?.value).toBe('');
  });

  it('when the callback is logged, then neither its code nor its state is in the log', async () => {
    const { callback, callbackPath, stateCookie } = await signInWith(which, person());
    expect(callback.statusCode).toBe(302);
    const code = new URL(callbackPath, APP_URL).searchParams.get('code')!;
    expect(logs.join('\n')).toContain(`/api/auth/callback/${which}`);
    expect(logs.filter((l) => l.includes(code) || l.includes(stateCookie))).toEqual([]);
  });

  it('when the same subject signs in again with another e-mail, then it is the same account', async () => {
    const who = person();
    const first = await signInWith(which, who);
    const firstUser = await sessionUser(first.session!.value);
    const again = await signInWith(which, { ...who, email: uniqueEmail('changed') });
    expect(again.callback.statusCode).toBe(302);
    expect((await sessionUser(again.session!.value)).id).toBe(firstUser.id);
    expect(await count(`users where id = $1`, [firstUser.id])).toBe(1);
  });

  it('when a verified account has the provider\'s verified e-mail, then the identity is linked to it and it is signed in', async () => {
    const u = await verifiedAccount();
    const who = person({ email: u.email.toUpperCase() });
    const users = await count('users');
    const { callback, session } = await signInWith(which, who);
    expect(callback.statusCode).toBe(302);
    expect((await sessionUser(session!.value)).id).toBe(u.id);
    expect(await count('users')).toBe(users);
    expect((await identities(u.id)).map((i) => i.subject)).toEqual([who.sub]);
  });

  it('when the account with that e-mail is not verified, then 409 and it is not taken over: no session, no link', async () => {
    const u = await signUpAndIn(app);
    const sessions = await count(`sessions where user_id = $1`, [u.id]);
    const { callback, session } = await signInWith(which, person({ email: u.email }));
    expect(callback.statusCode).toBe(409);
    expect(callback.json()).toMatchObject({ code: 'OAUTH_ACCOUNT_NOT_LINKABLE', reason: 'account-email-unverified' });
    expect(session).toBeUndefined();
    expect(await count(`sessions where user_id = $1`, [u.id])).toBe(sessions);
    expect(await identities(u.id)).toEqual([]);
  });

  it('when the provider has not verified its e-mail and a verified account has it, then 409: not linked, no session', async () => {
    const u = await verifiedAccount();
    const { callback, session } = await signInWith(which, person({ email: u.email, email_verified: false }));
    expect(callback.statusCode).toBe(409);
    expect(callback.json()).toMatchObject({ code: 'OAUTH_ACCOUNT_NOT_LINKABLE', reason: 'provider-email-unverified' });
    expect(session).toBeUndefined();
    expect(await identities(u.id)).toEqual([]);
  });

  it('when the provider has not verified a new e-mail, then the account is created with the e-mail unverified', async () => {
    const who = person({ email_verified: false });
    const { callback } = await signInWith(which, who);
    expect(callback.statusCode).toBe(302);
    expect((await userRow(who.email!)).email_verified_at).toBeNull();
    // the usual verification mail lets the owner of the address verify it
    const mail = await vi.waitFor(async () => (await lastMailTo(owner, who.email!)) ?? Promise.reject(new Error('no mail yet')), { timeout: 5000, interval: 50 });
    expect((await call(app, { method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(tokenFrom(mail.text))}` })).status).toBe(200);
    expect((await userRow(who.email!)).email_verified_at).not.toBeNull();
  });

  it('when an account made through an unverified provider e-mail is recovered by a password reset, then that identity no longer signs in to it', async () => {
    const who = person({ email_verified: false });
    const made = await signInWith(which, who);
    const userId = (await sessionUser(made.session!.value)).id;
    const token = await resetToken(who.email!);
    expect((await call(app, { method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'the mailbox owner' } })).status).toBe(200);
    expect(await sessionUser(made.session!.value)).toBeNull();
    expect(await identities(userId)).toEqual([]);
    const again = await signInWith(which, who);
    expect(again.callback.statusCode).toBe(409);
    expect(again.session).toBeUndefined();
  });

  it('when the provider vouched for the e-mail, then a password reset keeps the identity', async () => {
    const who = person();
    const made = await signInWith(which, who);
    const userId = (await sessionUser(made.session!.value)).id;
    const token = await resetToken(who.email!);
    expect((await call(app, { method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'a new password' } })).status).toBe(200);
    expect((await sessionUser((await signInWith(which, who)).session!.value)).id).toBe(userId);
  });

  it('when the provider shares no e-mail, then 400 OAUTH_EMAIL_REQUIRED and no account', async () => {
    const users = await count('users');
    const { callback, session } = await signInWith(which, person({ email: null }));
    expect(callback.statusCode).toBe(400);
    expect(callback.json().code).toBe('OAUTH_EMAIL_REQUIRED');
    expect(session).toBeUndefined();
    expect(await count('users')).toBe(users);
  });

  it('when the provider\'s e-mail is in the reserved wallet domain (even verified), then 400 VALIDATION_ERROR and no account: it would take a wallet\'s derived e-mail', async () => {
    const users = await count('users');
    const { callback, session } = await signInWith(which, person({ email: `0x${'ab'.repeat(20)}@wallet.127.0.0.1`, email_verified: true }));
    expect(callback.statusCode).toBe(400);
    expect(callback.json().code).toBe('VALIDATION_ERROR');
    expect(session).toBeUndefined();
    expect(await count('users')).toBe(users);
  });

  it('when the callback is replayed (same state, same code), then 400 and no second session', async () => {
    const who = person();
    const first = await signInWith(which, who);
    expect(first.callback.statusCode).toBe(302);
    const userId = (await sessionUser(first.session!.value)).id;
    const sessions = await count(`sessions where user_id = $1`, [userId]);
    const replay = await app.inject({ method: 'GET', url: first.callbackPath, cookies: { [`oauth_${which}`]: first.stateCookie } });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('OAUTH_STATE_INVALID');
    expect(replay.cookies.find((c) => c.name === 'session')).toBeUndefined();
    expect(await count(`sessions where user_id = $1`, [userId])).toBe(sessions);
  });

  it('when the state does not match this browser\'s, or the browser has none, or the URL has none, then 400 and no session', async () => {
    const who = person();
    const mine = await start(app, which);
    const theirs = await start(app, which);
    const callbackPath = await atProvider(theirs.location!, who);
    const users = await count('users');
    const mismatch = await app.inject({ method: 'GET', url: callbackPath, cookies: { [`oauth_${which}`]: mine.cookie!.value } });
    const noCookie = await app.inject({ method: 'GET', url: callbackPath });
    const noState = await app.inject({ method: 'GET', url: callbackPath.replace(/([?&])state=[^&]*/, '$1'), cookies: { [`oauth_${which}`]: theirs.cookie!.value } });
    for (const res of [mismatch, noCookie, noState]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('OAUTH_STATE_INVALID');
      expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
    }
    expect(await count('users')).toBe(users);
    // the refused attempts did not spend the real flow: its own browser still completes it
    const ok = await app.inject({ method: 'GET', url: callbackPath, cookies: { [`oauth_${which}`]: theirs.cookie!.value } });
    expect(ok.statusCode).toBe(302);
  });

  it('when the provider refuses the code, then 401 OAUTH_REJECTED and no session', async () => {
    const s = await start(app, which);
    const callbackPath = await atProvider(s.location!, person());
    provider.server.service.once('beforeResponse', (r: { body: unknown; statusCode: number }) => {
      r.body = { error: 'invalid_grant' };
      r.statusCode = 400;
    });
    const res = await app.inject({ method: 'GET', url: callbackPath, cookies: { [`oauth_${which}`]: s.cookie!.value } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('OAUTH_REJECTED');
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
  });

  it('when the person declines at the provider (error=access_denied), then 401 and no session', async () => {
    const s = await start(app, which);
    const state = new URL(s.location!).searchParams.get('state')!;
    const res = await app.inject({ method: 'GET', url: `/api/auth/callback/${which}?error=access_denied&state=${state}`, cookies: { [`oauth_${which}`]: s.cookie!.value } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('OAUTH_REJECTED');
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
  });
});

describe('the flow\'s state', () => {
  it('when the same callback arrives twice at once, then exactly one signs in', async () => {
    const s = await start(app, 'codehost');
    const callbackPath = await atProvider(s.location!, person());
    const both = await Promise.all([0, 1].map(() => app.inject({ method: 'GET', url: callbackPath, cookies: { oauth_codehost: s.cookie!.value } })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([302, 400]);
  });

  it('when the flow has expired, then 400 and no session', async () => {
    const s = await start(app, 'idp');
    const callbackPath = await atProvider(s.location!, person());
    await owner.query(`update oauth_flows set expires_at = now() - interval '1 second' where state_hash = sha256(convert_to($1, 'UTF8'))`, [s.cookie!.value]);
    const res = await app.inject({ method: 'GET', url: callbackPath, cookies: { oauth_idp: s.cookie!.value } });
    expect([res.statusCode, res.json().code]).toEqual([400, 'OAUTH_STATE_INVALID']);
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
  });

  it('when a codehost flow\'s state is brought to the idp callback, then 400: a flow serves its own provider only', async () => {
    const s = await start(app, 'codehost');
    const callbackPath = (await atProvider(s.location!, person())).replace('/callback/codehost', '/callback/idp');
    const res = await app.inject({ method: 'GET', url: callbackPath, cookies: { oauth_idp: s.cookie!.value } });
    expect([res.statusCode, res.json().code]).toEqual([400, 'OAUTH_STATE_INVALID']);
  });
});

describe('the ID token (idp)', () => {
  it('when the ID token\'s nonce is not the one sent, then 401 and no session', async () => {
    const s = await start(app, 'idp');
    const callbackPath = await atProvider(s.location!, person());
    // the ID token is the token that carries the nonce back
    const tamper = (t: { payload: Record<string, unknown> }) => {
      if ('nonce' in t.payload) t.payload['nonce'] = 'not-the-nonce';
    };
    provider.server.service.on('beforeTokenSigning', tamper);
    const res = await app.inject({ method: 'GET', url: callbackPath, cookies: { oauth_idp: s.cookie!.value } }).finally(() => provider.server.service.off('beforeTokenSigning', tamper));
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
    expect([res.statusCode, res.json().code]).toEqual([401, 'OAUTH_REJECTED']);
  });
});

describe('the idp\'s userinfo', () => {
  it('when the ID token carries no e-mail, then the e-mail and its verified flag come from userinfo (same subject)', async () => {
    const who = person();
    const strip = (t: { payload: Record<string, unknown> }) => {
      delete t.payload['email'];
      delete t.payload['email_verified'];
    };
    let userinfoCalls = 0;
    const counted = () => void userinfoCalls++;
    provider.server.service.on('beforeTokenSigning', strip);
    provider.server.service.on('beforeUserinfo', counted);
    const { callback, session } = await signInWith('idp', who).finally(() => {
      provider.server.service.off('beforeTokenSigning', strip);
      provider.server.service.off('beforeUserinfo', counted);
    });
    expect(callback.statusCode).toBe(302);
    expect(userinfoCalls).toBe(1);
    expect(await sessionUser(session!.value)).toMatchObject({ email: who.email });
    expect((await userRow(who.email!)).email_verified_at).not.toBeNull();
  });
});

describe('a GitHub-style code host (no email_verified in the profile)', () => {
  it('when the profile lacks the flag, then the primary address of its e-mail list is used with its verified flag', async () => {
    const email = uniqueEmail('octo');
    provider.codehostStyle = { user: { id: 4242 + subjects++, login: 'octocat', email: null }, emails: [{ email: uniqueEmail('other'), primary: false, verified: true }, { email, primary: true, verified: true }] };
    try {
      const { callback, session } = await signInWith('codehost', person({ email: 'ignored@example.test' }));
      expect(callback.statusCode).toBe(302);
      const row = await userRow(email);
      expect(row).toMatchObject({ name: 'octocat' });
      expect(row.email_verified_at).not.toBeNull();
      expect((await sessionUser(session!.value)).email).toBe(email);
    } finally {
      provider.codehostStyle = null;
    }
  });
});

describe('configuration and provider failures', () => {
  it('when a provider\'s client id or secret is missing, then 503 OAUTH_NOT_CONFIGURED on start and callback, and nothing is stored', async () => {
    const { app: bare, infra: bareInfra } = await startTestApp({ env: { CODEHOST_CLIENT_ID: 'only-the-id' } });
    for (const url of ['/api/auth/codehost', '/api/auth/idp', '/api/auth/callback/codehost?code=x&state=y', '/api/auth/callback/idp?code=x&state=y']) {
      const res = await call(bare, { method: 'GET', url });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 503, code: 'OAUTH_NOT_CONFIGURED' });
      expect(res.cookies).toEqual(expect.not.arrayContaining([expect.objectContaining({ name: 'session' })]));
    }
    expect(Number((await bareInfra.pools.owner.query(`select count(*)::int as n from oauth_flows`)).rows[0].n)).toBe(0);
  });

  it('when the idp cannot be reached for discovery, then 502 and no flow is stored', async () => {
    const { app: down, infra: downInfra } = await startTestApp({ env: { ...provider.env, IDP_ISSUER_URL: await deadUrl() } });
    const res = await call(down, { method: 'GET', url: '/api/auth/idp' });
    expect([res.status, res.body.code]).toEqual([502, 'UPSTREAM_UNAVAILABLE']);
    expect(Number((await downInfra.pools.owner.query(`select count(*)::int as n from oauth_flows`)).rows[0].n)).toBe(0);
  });

  it('when the code host\'s token endpoint is down at the callback, then 502, no session and no account', async () => {
    const { app: down, infra: downInfra } = await startTestApp({ env: { ...provider.env, CODEHOST_TOKEN_URL: `${await deadUrl()}/token` } });
    const who = person();
    const { callback, session } = await signInWith('codehost', who, down);
    expect([callback.statusCode, callback.json().code]).toEqual([502, 'UPSTREAM_UNAVAILABLE']);
    expect(session).toBeUndefined();
    expect((await downInfra.pools.owner.query(`select count(*)::int as n from users where email = $1`, [who.email])).rows[0].n).toBe(0);
  });

  it('when the provider fails on its side (500 from the token endpoint), then 502 and no session', async () => {
    const s = await start(app, 'idp');
    const callbackPath = await atProvider(s.location!, person());
    provider.server.service.once('beforeResponse', (r: { body: unknown; statusCode: number }) => {
      r.body = { error: 'server_error' };
      r.statusCode = 500;
    });
    const res = await app.inject({ method: 'GET', url: callbackPath, cookies: { oauth_idp: s.cookie!.value } });
    expect([res.statusCode, res.json().code]).toEqual([502, 'UPSTREAM_UNAVAILABLE']);
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
  });
});
