import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../../src/application/errors.js';
import { CLOCK } from '../../src/application/ports/clock.port.js';
import { TOKEN_GATE, type TokenGate, type TokenGateVerdict } from '../../src/application/ports/token-gate.port.js';
import { ManualClock } from '../fakes/manual-clock.js';
import { bearer, call, signUpAndIn } from '../support/http-client.js';
import { startSocialIssuer, unsecuredToken } from '../support/identity/fake-social-issuer.js';
import { startTestApp } from '../support/test-app.js';

/**
 * Social identity sign-in (spec "Decentralized social identity and token gating", CONTRACT.md
 * section 7 "social session") against a local identity provider: its JWKS served over HTTP by the
 * test, tokens signed with its keys. The token gate is a test implementation of the TokenGate port
 * (the on-chain check is the token-gating area's, wired in by the integrator).
 */
const RICH = `0x${'11'.repeat(20)}`;
const POOR = `0x${'22'.repeat(20)}`;
const CHAIN_DOWN = `0x${'33'.repeat(20)}`;
const GATE: TokenGateVerdict = { hasAccess: true, required: '100', minBalance: '100000000000000000000' };

class TestGate implements TokenGate {
  async check(address: string): Promise<TokenGateVerdict | null> {
    const a = address.toLowerCase();
    if (a === RICH) return GATE;
    if (a === POOR) return { ...GATE, hasAccess: false };
    if (a === CHAIN_DOWN) throw new UpstreamUnavailableError('Base RPC');
    return null;
  }
}

const issuer = await startSocialIssuer();
const { app, infra, logs } = await startTestApp({ env: issuer.env, override: (c) => c.register(TOKEN_GATE, { useValue: new TestGate() }) });
const owner = infra.pools.owner;
/** The same service whose identity provider's key endpoint refuses connections. */
const down = await startTestApp({ env: { ...issuer.env, SOCIAL_JWKS_URL: 'http://127.0.0.1:1/.well-known/jwks.json' } });
/** The same service on a clock the test moves, for lifetimes. */
const clock = new ManualClock();
const clocked = await startTestApp({ env: issuer.env, override: (c) => c.register(CLOCK, { useValue: clock }) });
/** And one with no SOCIAL_* configuration at all. */
const bare = await startTestApp();

const verify = (payload: object | undefined) => call(app, { method: 'POST', url: '/api/auth/social/verify', payload: payload as object });
const refresh = (refreshToken: unknown) => call(app, { method: 'POST', url: '/api/auth/social/refresh', payload: { refreshToken } });
const settingsWith = (sessionToken: string) => call(app, { method: 'GET', url: '/api/settings', headers: bearer(sessionToken) });

/** Rows a sign-in writes: a change in any of them means a refused sign-in left something behind. */
async function footprint() {
  const { rows } = await owner.query(`select
    (select count(*)::int from users) as users, (select count(*)::int from sessions) as sessions,
    (select count(*)::int from social_identities) as identities, (select count(*)::int from social_refresh_tokens) as refresh_tokens`);
  return rows[0];
}

async function signedIn(fid?: number) {
  const res = await verify({ fidToken: await issuer.token(fid === undefined ? {} : { sub: fid }) });
  expect(res.status).toBe(200);
  return res.body as { sessionToken: string; refreshToken: string; [k: string]: unknown };
}

describe('POST /api/auth/social/verify', () => {
  it('when the token is valid, then a new account is made for the fid, the session token works as a credential, and no token is logged', async () => {
    const fid = 900_001;
    const res = await verify({ fidToken: await issuer.token({ sub: fid }) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      sessionToken: expect.stringMatching(/^c29jaWFsLXNlc3Npb246[A-Za-z0-9+/]{44}$/),
      address: null,
      message: `Signed up with social identity fid ${fid}`,
      tokenGated: false,
      accessLevel: 'standard',
      refreshToken: expect.stringMatching(/^[A-Za-z0-9+/]{64}$/),
    });
    // base64, as the spec says
    expect(Buffer.from(res.body.sessionToken, 'base64').toString('base64')).toBe(res.body.sessionToken);

    const me = await settingsWith(res.body.sessionToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: `fid-${fid}@social.invalid`, name: `fid ${fid}`, emailVerified: false });
    const session = await call(app, { method: 'GET', url: '/api/auth/session', headers: bearer(res.body.sessionToken) });
    expect(session.body.user.id).toBe(me.body.id);

    // the browser form: the same session as a cookie
    const cookie = res.cookies.find((c) => c.name === 'session')!;
    expect(cookie.value).toBe(res.body.sessionToken);
    expect(cookie.httpOnly).toBe(true);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: `session=${cookie.value}` } })).body.id).toBe(me.body.id);

    const fidToken = await issuer.token({ sub: fid });
    const again = await verify({ fidToken });
    for (const secret of [res.body.sessionToken, res.body.refreshToken, again.body.sessionToken, fidToken]) {
      expect(logs.some((line) => line.includes(secret))).toBe(false);
    }
    const { rows } = await owner.query(`select topic from outbox where user_id = $1 and topic = 'user.created'`, [me.body.id]);
    expect(rows).toHaveLength(1);
    const stored = await owner.query(`select password_hash from users where id = $1`, [me.body.id]);
    expect(stored.rows[0].password_hash).toBeNull();
  });

  it('when the same fid signs in again, then it is the same account and a second session', async () => {
    const fid = 900_002;
    const first = await signedIn(fid);
    const again = await verify({ fidToken: await issuer.token({ sub: fid, eddsa: true }) });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe(`Signed in with social identity fid ${fid}`);
    expect(again.body.sessionToken).not.toBe(first.sessionToken);
    const a = await settingsWith(first.sessionToken);
    const b = await settingsWith(again.body.sessionToken);
    expect(a.body.id).toBe(b.body.id);
  });

  it('when two first sign-ins of one fid race, then both succeed on one account', async () => {
    const fid = 900_003;
    const [x, y] = await Promise.all([verify({ fidToken: await issuer.token({ sub: fid }) }), verify({ fidToken: await issuer.token({ sub: fid }) })]);
    expect([x.status, y.status]).toEqual([200, 200]);
    const { rows } = await owner.query(`select count(*)::int as n from social_identities where fid = $1`, [fid]);
    expect(rows[0].n).toBe(1);
    expect((await settingsWith(x.body.sessionToken)).body.id).toBe((await settingsWith(y.body.sessionToken)).body.id);
  });

  it('when someone registered the e-mail a fid would get, then the fid gets its own account, never that one', async () => {
    const fid = 900_004;
    const squatter = await signUpAndIn(app, { email: `fid-${fid}@social.invalid` });
    const res = await signedIn(fid);
    const me = await settingsWith(res.sessionToken);
    expect(me.body.id).not.toBe(squatter.id);
    expect(me.body.email).toMatch(new RegExp(`^fid-${fid}-[0-9a-f]{8}@social\\.invalid$`));
  });

  it("when two fids sign in, then each session sees only its own account", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const meA = await settingsWith(a.sessionToken);
    const meB = await settingsWith(b.sessionToken);
    expect(meA.body.id).not.toBe(meB.body.id);
    // a key made with A's session is A's; B cannot read it
    const key = await call(app, { method: 'POST', url: '/api/keys', headers: bearer(a.sessionToken), payload: { name: 'mine' } });
    expect(key.status).toBe(201);
    expect((await call(app, { method: 'GET', url: `/api/keys/${key.body.id}`, headers: bearer(b.sessionToken) })).status).toBe(404);
  });

  it('when the session token is sent as a Bearer, then a state-changing call needs no CSRF token; as a cookie it does', async () => {
    const s = await signedIn();
    expect((await call(app, { method: 'POST', url: '/api/auth/token', headers: bearer(s.sessionToken) })).status).toBe(200);
    const asCookie = await call(app, { method: 'POST', url: '/api/auth/token', headers: { cookie: `session=${s.sessionToken}` } });
    expect(asCookie.status).toBe(403);
    expect(asCookie.body.code).toBe('CSRF_TOKEN_MISSING');
  });

  const refused: [string, () => Promise<string>][] = [
    ['for another audience', () => issuer.token({ aud: 'someone-else.example' })],
    ['from another issuer', () => issuer.token({ iss: 'https://evil.example' })],
    ['signed by an unknown key', () => issuer.token({ stranger: true })],
    ['signed by an unknown key under a known key id', () => issuer.token({ stranger: true, kid: 'es-1' })],
    ['expired', () => issuer.token({ expiresIn: -120 })],
    ['without an expiry', () => issuer.token({ expiresIn: null })],
    ['without a subject', () => issuer.token({ sub: null })],
    ['whose subject is not an integer', () => issuer.token({ sub: 'alice' })],
    ['whose subject is zero', () => issuer.token({ sub: '0' })],
    ['whose subject is negative', () => issuer.token({ sub: '-7' })],
    ['whose subject is a fraction', () => issuer.token({ sub: '1.5' })],
    ['whose subject has a leading zero', () => issuer.token({ sub: '0042' })],
    ['whose subject is beyond a safe integer', () => issuer.token({ sub: '99999999999999999999' })],
    ['unsecured (alg none)', async () => unsecuredToken({ sub: '42' })],
    ['HMAC-signed with the public key material as the secret', () =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: 'es-1' }).setIssuer(issuer.env.SOCIAL_ISSUER).setAudience(issuer.env.SOCIAL_AUDIENCE).setSubject('42')
        .setExpirationTime('10m').sign(new TextEncoder().encode('es-1'))],
    ['not a JWT at all', async () => 'not-a-jwt'],
  ];
  for (const [what, make] of refused) {
    it(`when the token is ${what}, then 401 and no account, session or refresh token`, async () => {
      const before = await footprint();
      const res = await verify({ fidToken: await make() });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'SOCIAL_TOKEN_INVALID', error: expect.any(String) });
      expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
      expect(await footprint()).toEqual(before);
    });
  }

  it('when the token is missing, then 401 SOCIAL_TOKEN_MISSING (spec); a token of the wrong type is a 400', async () => {
    const before = await footprint();
    for (const payload of [{}, { fidToken: '' }, undefined]) {
      const res = await verify(payload);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('SOCIAL_TOKEN_MISSING');
    }
    const wrongType = await verify({ fidToken: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe('VALIDATION_ERROR');
    expect(await footprint()).toEqual(before);
  });

  it('when the address is malformed, then 400 and nothing is created', async () => {
    const before = await footprint();
    for (const address of ['0x123', `0x${'zz'.repeat(20)}`, '', `${RICH}00`]) {
      const res = await verify({ fidToken: await issuer.token(), address });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect(await footprint()).toEqual(before);
  });

  it('when the address holds too little of the gating token, then 403 with required and minBalance, and nothing is created', async () => {
    const before = await footprint();
    const res = await verify({ fidToken: await issuer.token(), address: POOR });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Insufficient token balance', code: 'INSUFFICIENT_TOKEN_BALANCE', required: '100', minBalance: '100000000000000000000' });
    expect(await footprint()).toEqual(before);
  });

  it('when the address passes the gate, then tokenGated is true and the access level says so', async () => {
    const res = await verify({ fidToken: await issuer.token(), address: RICH });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, address: RICH, tokenGated: true, accessLevel: 'token-holder' });
  });

  it('when no gate applies to the address, then it signs in ungated', async () => {
    const address = `0x${'44'.repeat(20)}`;
    const res = await verify({ fidToken: await issuer.token(), address });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ address, tokenGated: false, accessLevel: 'standard' });
  });

  it('when the chain cannot be read for the gate, then 502 and nothing is created', async () => {
    const before = await footprint();
    const res = await verify({ fidToken: await issuer.token(), address: CHAIN_DOWN });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(await footprint()).toEqual(before);
  });
});

describe('POST /api/auth/social/refresh', () => {
  it('when the refresh token is live, then a new session token and a new refresh token; the old session ends', async () => {
    const first = await signedIn();
    const res = await refresh(first.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      sessionToken: expect.stringMatching(/^c29jaWFsLXNlc3Npb246/),
      expiresIn: 86400,
      message: expect.any(String),
      refreshToken: expect.stringMatching(/^[A-Za-z0-9+/]{64}$/),
    });
    expect(res.body.sessionToken).not.toBe(first.sessionToken);
    expect(res.body.refreshToken).not.toBe(first.refreshToken);
    const me = await settingsWith(res.body.sessionToken);
    expect(me.status).toBe(200);
    const old = await settingsWith(first.sessionToken);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('TOKEN_INVALID');
    // and the chain goes on
    const third = await refresh(res.body.refreshToken);
    expect(third.status).toBe(200);
    expect((await settingsWith(third.body.sessionToken)).body.id).toBe(me.body.id);
  });

  it('when a refresh token is used twice, then 401 and the whole sign-in ends (its session and its newer refresh token)', async () => {
    const first = await signedIn();
    const second = (await refresh(first.refreshToken)).body;
    const reused = await refresh(first.refreshToken);
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('REFRESH_TOKEN_INVALID');
    expect((await settingsWith(second.sessionToken)).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(401);
  });

  it('when two refreshes with one token race, then exactly one gets a session', async () => {
    const first = await signedIn();
    const results = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('when the social session was signed out, then its refresh token no longer works', async () => {
    const s = await signedIn();
    expect((await call(app, { method: 'POST', url: '/api/auth/signout', headers: bearer(s.sessionToken) })).status).toBe(200);
    expect((await settingsWith(s.sessionToken)).status).toBe(401);
    expect((await refresh(s.refreshToken)).status).toBe(401);
  });

  it('when the refresh token is missing, then 400; unknown or malformed, then 401; nothing is created', async () => {
    const before = await footprint();
    const missing = await call(app, { method: 'POST', url: '/api/auth/social/refresh', payload: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_ERROR');
    const s = await signedIn();
    const after = await footprint();
    for (const token of ['bm90LWEtcmVmcmVzaC10b2tlbg==', s.sessionToken, `${s.refreshToken.slice(0, -4)}AAAA`]) {
      const res = await refresh(token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('REFRESH_TOKEN_INVALID');
    }
    expect(await footprint()).toEqual(after);
    expect(after.users).toBe(before.users + 1);
    // a probe with a wrong token did not end the real sign-in
    expect((await refresh(s.refreshToken)).status).toBe(200);
  });
});

describe('lifetimes', () => {
  const HOUR = 3600 * 1000;
  it('when a day has passed, then the session token is dead but the refresh token still buys a new one; after 30 days it does not', async () => {
    const signIn = await call(clocked.app, { method: 'POST', url: '/api/auth/social/verify', payload: { fidToken: await issuer.token() } });
    expect(signIn.status).toBe(200);
    const { sessionToken, refreshToken } = signIn.body;
    const me = (token: string) => call(clocked.app, { method: 'GET', url: '/api/settings', headers: bearer(token) });
    clock.advance(23 * HOUR);
    expect((await me(sessionToken)).status).toBe(200);
    clock.advance(2 * HOUR);
    expect((await me(sessionToken)).status).toBe(401);
    const renewed = await call(clocked.app, { method: 'POST', url: '/api/auth/social/refresh', payload: { refreshToken } });
    expect(renewed.status).toBe(200);
    expect((await me(renewed.body.sessionToken)).status).toBe(200);
    clock.advance(31 * 24 * HOUR);
    const late = await call(clocked.app, { method: 'POST', url: '/api/auth/social/refresh', payload: { refreshToken: renewed.body.refreshToken } });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('REFRESH_TOKEN_INVALID');
  });
});

describe('GET /api/auth/social/verify and /api/auth/social/refresh', () => {
  it('describe the endpoints: the pinned issuer, audience and algorithms, and the request and response fields', async () => {
    const v = await call(app, { method: 'GET', url: '/api/auth/social/verify' });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({
      endpoint: '/api/auth/social/verify', method: 'POST', configured: true, issuer: issuer.env.SOCIAL_ISSUER, audience: issuer.env.SOCIAL_AUDIENCE,
      algorithms: ['EdDSA', 'ES256', 'RS256'], expiresIn: 86400,
    });
    const r = await call(app, { method: 'GET', url: '/api/auth/social/refresh' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ endpoint: '/api/auth/social/refresh', method: 'POST', expiresIn: 86400 });
  });
});

describe('when the identity provider cannot be reached', () => {
  it('then verify answers 502 and nothing is created', async () => {
    const count = async () => (await down.infra.pools.owner.query('select count(*)::int as n from sessions')).rows[0].n;
    const before = await count();
    const res = await call(down.app, { method: 'POST', url: '/api/auth/social/verify', payload: { fidToken: await issuer.token() } });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(await count()).toBe(before);
  });
});

describe('when social identity is not configured', () => {
  it('then verify answers 503 SOCIAL_NOT_CONFIGURED and the metadata says so', async () => {
    const res = await call(bare.app, { method: 'POST', url: '/api/auth/social/verify', payload: { fidToken: await issuer.token() } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('SOCIAL_NOT_CONFIGURED');
    const meta = await call(bare.app, { method: 'GET', url: '/api/auth/social/verify' });
    expect(meta.body).toMatchObject({ configured: false, issuer: null, audience: null });
  });
});
