import { afterAll, describe, expect, it } from 'vitest';
import { modelsForLevel } from '../../src/domain/ai/model-catalog.js';
import { ADMIN_DAILY_UNITS } from '../../src/domain/billing/daily-allowance.js';
import { startFakeFleet } from '../support/ai/fake-ai-fleet.js';
import { chat, hi, patientBreakers, subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail, verifyEmail, type SignedIn } from '../support/http-client.js';
import { gatewayTokenFor } from '../support/agents/instances.js';
import { startTestApp } from '../support/test-app.js';

/**
 * CONTRACT.md section 4 (admin by e-mail) and docs/decisions/0014-admin-emails-need-verification.md: an address in ADMIN_EMAILS or
 * TESTER_EMAILS grants its rights only while the account's e-mail is verified. Anyone can register
 * with a listed address nobody has claimed yet, or change their own e-mail to one; only its owner
 * can open the link mailed to it. Every right is checked before and after that link is opened:
 * the admin-only endpoints (session, API key, JWT), the agent limit, the chat level of POST
 * /api/ai/chat and of POST /api/runtime/chat, the admin daily units, the checkout bypass, and the
 * tester bypass of POST /api/provision.
 */
const fleet = await startFakeFleet();
afterAll(() => fleet.close());
const ADMINS = [uniqueEmail('listed-admin'), uniqueEmail('moved-admin'), uniqueEmail('leaving-admin')];
const TESTERS = [uniqueEmail('listed-tester'), uniqueEmail('moved-tester')];
const { app, infra, config } = await startTestApp({
  env: { ...fleet.env, ADMIN_EMAILS: ADMINS.join(','), TESTER_EMAILS: TESTERS.join(','), RATE_LIMIT_CHAT: '10000', RATE_LIMIT_AGENTS: '100000', RATE_LIMIT_AUTH: '100000' },
  override: patientBreakers,
});
const owner = infra.pools.owner;

/** A model of the network level (an admin's) that the label level does not offer. */
const label = modelsForLevel('label').map((m) => m.id);
const networkOnly = modelsForLevel('network').find((m) => !label.includes(m.id))!.id;

const get = (headers: Record<string, string>, url: string) => call(app, { method: 'GET', url, headers });
const provisionAgent = (u: SignedIn, name: string) => call(app, { method: 'POST', url: '/api/agents/provision', headers: u.headers, payload: { name } });
const provisionChannel = (u: SignedIn) =>
  call(app, { method: 'POST', url: '/api/provision', headers: u.headers, payload: { channelTokenA: 'bot-token-A-0123456789abcdef', plan: 'collective', email: u.email } });
const emailVerified = async (userId: string) => (await owner.query('select email_verified_at is not null v from users where id = $1', [userId])).rows[0].v as boolean;

const runtimeChat = (token: string, agentId: string, model: string) =>
  call(app, { method: 'POST', url: '/api/runtime/chat', headers: bearer(token), payload: { agentId, model, messages: [{ role: 'user', content: 'hi' }] } });

/** Every way an admin differs from a `label` subscriber, read through the public API. */
async function adminRights(u: SignedIn, keys: { apiKey: string; jwt: string }, agent: { token: string; agentId: string }) {
  const adminOnly = await Promise.all([
    get({ cookie: u.cookie }, '/api/admin/webhooks'),
    get(bearer(keys.apiKey), '/api/admin/webhooks'),
    get(bearer(keys.jwt), '/api/admin/payments/unmatched'),
  ]);
  const networkChat = await chat(app, u, { plan: 'network', body: { messages: hi, model: networkOnly } });
  const runtime = await runtimeChat(agent.token, agent.agentId, networkOnly);
  const checkout = await get({ cookie: u.cookie }, '/api/psp/checkout?plan=network');
  const billing = await get({ cookie: u.cookie }, '/api/billing');
  const session = await get({ cookie: u.cookie }, '/api/auth/session');
  return {
    sessionRole: session.body.user.role as string,
    adminOnly: adminOnly.map((r) => `${r.status} ${r.body.code ?? ''}`.trim()),
    networkChat: `${networkChat.status} ${networkChat.body.code ?? ''}`.trim(),
    runtimeChat: `${runtime.status} ${runtime.body.code ?? ''}`.trim(),
    checkoutToOnboarding: checkout.headers.location === `${config.APP_URL}/onboarding`,
    dailyUnits: billing.body.usage.dailyUnits as number,
  };
}
const NOT_ADMIN = {
  sessionRole: 'user',
  adminOnly: ['403 ADMIN_REQUIRED', '403 ADMIN_REQUIRED', '403 ADMIN_REQUIRED'],
  networkChat: '402 SUBSCRIPTION_REQUIRED',
  runtimeChat: '403 MODEL_RESTRICTED',
  checkoutToOnboarding: false,
};
const ADMIN = { sessionRole: 'admin', adminOnly: ['200', '200', '200'], networkChat: '200', runtimeChat: '200', checkoutToOnboarding: true, dailyUnits: ADMIN_DAILY_UNITS };

/** A `label` subscriber (limit: one agent) with an agent, an API key, a JWT and a gateway token, made before any verification. */
async function labelSubscriber(u: SignedIn) {
  await subscribe(owner, u.id, 'label');
  const first = await provisionAgent(u, 'First');
  expect(first.status).toBe(201);
  const apiKey = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'k' } })).body.key as string;
  const jwt = (await call(app, { method: 'POST', url: '/api/auth/token', headers: u.headers })).body.token as string;
  return { keys: { apiKey, jwt }, runtime: { token: await gatewayTokenFor(owner, u.id), agentId: first.body.agent.id as string } };
}

describe('an ADMIN_EMAILS address grants admin rights only once verified', () => {
  it('when someone registers with an unclaimed admin address and signs in without verifying, then they are a plain user; after the link is opened, an admin', async () => {
    const u = await signUpAndIn(app, { email: ADMINS[0] });
    const { keys, runtime } = await labelSubscriber(u);

    const before = await adminRights(u, keys, runtime);
    expect(before).toMatchObject(NOT_ADMIN);
    expect(before.dailyUnits).toBeLessThan(ADMIN_DAILY_UNITS);
    // the plan's agent limit, not an admin's
    expect((await provisionAgent(u, 'Second')).body).toMatchObject({ code: 'AGENT_LIMIT_REACHED', current: 1, limit: 1 });
    // the label level itself works: the refusals above are about the level, not a broken setup
    expect((await runtimeChat(runtime.token, runtime.agentId, label[0]!)).status).toBe(200);

    await verifyEmail(app, owner, u.email);
    expect(await emailVerified(u.id)).toBe(true);
    // the same session, key and JWT: the role is decided again at this request
    expect(await adminRights(u, keys, runtime)).toEqual(ADMIN);
    expect((await provisionAgent(u, 'Second')).status).toBe(201);
  });

  it('when a verified user changes their e-mail to an admin address, then nothing is granted until the new address is verified', async () => {
    const u = await signUpVerifiedAndIn(app, owner);
    const { keys, runtime } = await labelSubscriber(u);
    expect(await adminRights(u, keys, runtime)).toMatchObject(NOT_ADMIN);

    const moved = await call(app, { method: 'POST', url: '/api/settings', headers: u.headers, payload: { email: ADMINS[1] } });
    expect(moved.body).toMatchObject({ email: ADMINS[1], emailVerified: false });
    const afterMove = await adminRights(u, keys, runtime);
    expect(afterMove).toMatchObject(NOT_ADMIN);
    expect(afterMove.dailyUnits).toBeLessThan(ADMIN_DAILY_UNITS);
    expect((await provisionAgent(u, 'Second')).body).toMatchObject({ code: 'AGENT_LIMIT_REACHED', limit: 1 });

    await verifyEmail(app, owner, ADMINS[1]!);
    expect(await adminRights(u, keys, runtime)).toEqual(ADMIN);
  });

  it('when a verified admin moves to an unlisted address, then the rights end at the next request', async () => {
    const admin = await signUpVerifiedAndIn(app, owner, { email: ADMINS[2] });
    expect((await get({ cookie: admin.cookie }, '/api/admin/webhooks')).status).toBe(200);
    await call(app, { method: 'POST', url: '/api/settings', headers: admin.headers, payload: { email: uniqueEmail('stepped-down') } });
    expect((await get({ cookie: admin.cookie }, '/api/admin/webhooks')).body.code).toBe('ADMIN_REQUIRED');
  });
});

describe('a TESTER_EMAILS address grants the /api/provision bypass only once verified', () => {
  it('when someone registers with an unclaimed tester address, then sending it grants nothing (402) until the link is opened', async () => {
    const u = await signUpAndIn(app, { email: TESTERS[0] });
    expect(await provisionChannel(u)).toMatchObject({ status: 402, body: { code: 'SUBSCRIPTION_REQUIRED' } });
    expect((await owner.query('select count(*)::int n from agents where user_id = $1', [u.id])).rows[0].n).toBe(0);

    await verifyEmail(app, owner, u.email);
    expect((await provisionChannel(u)).status).toBe(200);
  });

  it('when a verified user changes their e-mail to a tester address, then the bypass waits for the new address to be verified', async () => {
    const u = await signUpVerifiedAndIn(app, owner);
    const moved = await call(app, { method: 'POST', url: '/api/settings', headers: u.headers, payload: { email: TESTERS[1] } });
    expect(moved.body).toMatchObject({ email: TESTERS[1], emailVerified: false });
    const asMoved = { ...u, email: TESTERS[1]! };
    expect(await provisionChannel(asMoved)).toMatchObject({ status: 402, body: { code: 'SUBSCRIPTION_REQUIRED' } });

    await verifyEmail(app, owner, TESTERS[1]!);
    expect((await provisionChannel(asMoved)).status).toBe(200);
  });
});
