import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SKILL_CATEGORIES, SKILL_SLUGS } from '../../src/domain/skills/skill-catalog-ids.js';
import { subscribe } from '../support/ai/chat-fixtures.js';
import { bearer, call, signUpAndIn, signUpVerifiedAndIn, uniqueEmail, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * /api/skills (spec "Skills"; CONTRACT.md sections 4, 5 and 7 "installed skill") and the
 * /api/agent actions `skills` and `update_skill`. No vendor of the outside-service skills is
 * configured here, so calling one answers 501 NOT_CONFIGURED.
 */
const ADMIN = uniqueEmail('skills-admin');
const { app, infra } = await startTestApp({ env: { RATE_LIMIT_AGENTS: '100000', ADMIN_EMAILS: ADMIN } });
const owner = infra.pools.owner;

const SKILL_KEYS = ['author', 'category', 'description', 'downloads', 'featured', 'icon', 'id', 'manifest', 'name', 'rating'];

const install = (user: SignedIn, payload: object) => call(app, { method: 'POST', url: '/api/skills', headers: user.headers, payload });
const callSkill = (user: SignedIn, slug: string, payload: object) => call(app, { method: 'POST', url: `/api/skills/${slug}`, headers: user.headers, payload });
const agentApi = (user: SignedIn, query: string) => call(app, { method: 'GET', url: `/api/agent${query}`, headers: { cookie: user.cookie } });
const agentPost = (user: SignedIn, payload: object) => call(app, { method: 'POST', url: '/api/agent', headers: user.headers, payload });

/** A user subscribed to `plan` (checkout catalog) with one agent. */
async function userWithAgent(plan = 'label') {
  const user = await signUpAndIn(app);
  await subscribe(owner, user.id, plan);
  const res = await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Skilled' } });
  expect(res.status).toBe(201);
  return { user, agent: res.body.agent as { id: string } };
}

const installs = async (agentId: string) =>
  (await owner.query(`select skill_id, version, enabled from skill_installs where agent_id = $1 order by installed_at, skill_id`, [agentId])).rows;
const allInstalls = async () => (await owner.query(`select agent_id, skill_id, enabled from skill_installs order by agent_id, skill_id`)).rows;

describe('GET /api/skills', () => {
  it('when asked without filters, then every skill with the spec fields and its manifest, the categories, and the featured ones', async () => {
    const res = await call(app, { method: 'GET', url: '/api/skills' });
    expect(res.status).toBe(200);
    expect(res.body.skills.map((s: { id: string }) => s.id).sort()).toEqual([...SKILL_SLUGS].sort());
    for (const s of res.body.skills) expect(Object.keys(s).sort()).toEqual(SKILL_KEYS);
    expect(res.body.categories).toEqual([...SKILL_CATEGORIES]);
    expect(res.body.featured.length).toBeGreaterThan(0);
    expect(res.body.featured).toEqual(res.body.skills.filter((s: { featured: boolean }) => s.featured));
    const venue = res.body.skills.find((s: { id: string }) => s.id === 'venue-finder');
    expect(venue).toMatchObject({ category: 'events', rating: 0, author: 'agent-host', manifest: { slug: 'venue-finder', version: '1.0.0', capabilities: ['network'], actions: [{ name: 'search', inputSchema: { type: 'object' } }] } });
    expect((await call(app, { method: 'GET', url: '/api/skills?category=all' })).body).toEqual(res.body);
  });

  it('when a category or featured=true is asked, then only those skills', async () => {
    const events = (await call(app, { method: 'GET', url: '/api/skills?category=events' })).body;
    expect(events.skills.map((s: { id: string }) => s.id)).toEqual(['guestlist', 'event-ticketing', 'event-scheduler', 'venue-finder', 'festival-finder']);
    expect(events.categories).toEqual([...SKILL_CATEGORIES]);
    const featured = (await call(app, { method: 'GET', url: '/api/skills?featured=true' })).body;
    expect(featured.skills.length).toBeGreaterThan(0);
    expect(featured.skills.every((s: { featured: boolean }) => s.featured)).toBe(true);
    const both = (await call(app, { method: 'GET', url: '/api/skills?category=creative&featured=true' })).body;
    expect(both.skills.map((s: { id: string }) => s.id)).toEqual(['visual-synthesizer']);
  });

  it('when the category or featured value is unknown, then 400 VALIDATION_ERROR', async () => {
    for (const q of ['category=nope', 'featured=yes', 'category=']) {
      const res = await call(app, { method: 'GET', url: `/api/skills?${q}` });
      expect({ q, status: res.status, code: res.body.code }).toEqual({ q, status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('when agents install a skill, then its downloads count them, across users', async () => {
    const downloads = async () => (await call(app, { method: 'GET', url: '/api/skills?category=productivity' })).body.skills.find((s: { id: string }) => s.id === 'file-manager').downloads;
    const before = await downloads();
    const a = await userWithAgent();
    const b = await userWithAgent();
    await install(a.user, { skillId: 'file-manager', agentId: a.agent.id });
    await install(b.user, { skillId: 'file-manager', agentId: b.agent.id });
    await install(b.user, { skillId: 'file-manager', agentId: b.agent.id });
    expect(await downloads()).toBe(before + 2);
  });
});

describe('POST /api/skills', () => {
  it('when a skill is installed, then success, one row with the manifest version, enabled, and installing again changes nothing', async () => {
    const { user, agent } = await userWithAgent();
    const res = await install(user, { skillId: 'email', agentId: agent.id });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    expect(await installs(agent.id)).toEqual([{ skill_id: 'email', version: '1.0.0', enabled: true }]);
    const at = (await owner.query(`select installed_at from skill_installs where agent_id = $1`, [agent.id])).rows;
    expect((await install(user, { skillId: 'email', agentId: agent.id })).body).toEqual({ success: true });
    expect((await owner.query(`select installed_at from skill_installs where agent_id = $1`, [agent.id])).rows).toEqual(at);
  });

  it("when the plan's per-agent skill limit is reached, then 429 with current and limit, nothing added; a skill already installed still succeeds", async () => {
    const { user, agent } = await userWithAgent('label');
    for (const skillId of ['email', 'browser', 'venue-finder']) expect((await install(user, { skillId, agentId: agent.id })).status).toBe(200);
    const res = await install(user, { skillId: 'festival-finder', agentId: agent.id });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'SKILL_LIMIT_REACHED', current: 3, limit: 3 });
    expect((await install(user, { skillId: 'browser', agentId: agent.id })).status).toBe(200);
    // a disabled skill still counts
    await agentPost(user, { action: 'update_skill', agentId: agent.id, skillId: 'email', enabled: false });
    expect((await install(user, { skillId: 'festival-finder', agentId: agent.id })).status).toBe(429);
    expect((await installs(agent.id)).map((r) => r.skill_id)).toEqual(['email', 'browser', 'venue-finder']);
  });

  it('when two installs race at one below the limit, then exactly one succeeds and the other is 429', async () => {
    for (let round = 0; round < 3; round++) {
      const { user, agent } = await userWithAgent('label');
      await install(user, { skillId: 'email', agentId: agent.id });
      await install(user, { skillId: 'browser', agentId: agent.id });
      const results = await Promise.all(['venue-finder', 'festival-finder'].map((skillId) => install(user, { skillId, agentId: agent.id })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 429]);
      expect(await installs(agent.id)).toHaveLength(3);
    }
  });

  it("when the agent is another user's, or not an agent, or the skill is unknown, then 404 and nothing is written", async () => {
    const a = await userWithAgent();
    const b = await userWithAgent();
    const before = await allInstalls();
    for (const payload of [
      { skillId: 'email', agentId: b.agent.id },
      { skillId: 'email', agentId: randomUUID() },
      { skillId: 'email', agentId: 'not-a-uuid' },
      { skillId: 'no-such-skill', agentId: a.agent.id },
    ]) {
      const res = await install(a.user, payload);
      expect({ payload, status: res.status, code: res.body.code }).toEqual({ payload, status: 404, code: 'NOT_FOUND' });
    }
    expect(await allInstalls()).toEqual(before);
  });

  it('when the body is bad, then 400 VALIDATION_ERROR and nothing is written', async () => {
    const { user, agent } = await userWithAgent();
    for (const payload of [{}, { skillId: 'email' }, { agentId: agent.id }, { skillId: 7, agentId: agent.id }, { skillId: '', agentId: agent.id }]) {
      const res = await install(user, payload);
      expect({ payload, status: res.status, code: res.body.code }).toEqual({ payload, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect(await installs(agent.id)).toEqual([]);
  });

  it('when the user has no active subscription, then 402 SUBSCRIPTION_REQUIRED and nothing is written', async () => {
    const { user, agent } = await userWithAgent();
    await owner.query(`update subscriptions set status = 'canceled' where user_id = $1`, [user.id]);
    const res = await install(user, { skillId: 'email', agentId: agent.id });
    expect(res).toMatchObject({ status: 402, body: { code: 'SUBSCRIPTION_REQUIRED' } });
    expect(await installs(agent.id)).toEqual([]);
  });

  it('when an admin without a subscription installs, then success (admins need no plan)', async () => {
    const admin = await signUpVerifiedAndIn(app, owner, { email: ADMIN });
    const agent = (await call(app, { method: 'POST', url: '/api/agents/provision', headers: admin.headers, payload: { name: 'Admin' } })).body.agent;
    expect((await install(admin, { skillId: 'email', agentId: agent.id })).status).toBe(200);
    expect(await installs(agent.id)).toHaveLength(1);
  });

  it('when there are no credentials, then 401; an API key is accepted', async () => {
    const { user, agent } = await userWithAgent();
    expect((await call(app, { method: 'POST', url: '/api/skills', payload: { skillId: 'email', agentId: agent.id } })).status).toBe(401);
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'skills' } })).body.key;
    expect((await call(app, { method: 'POST', url: '/api/skills', headers: bearer(key), payload: { skillId: 'email', agentId: agent.id } })).status).toBe(200);
  });
});

describe('POST /api/skills/:slug', () => {
  it('when an outside-service skill is called with a good body, then 501 NOT_CONFIGURED', async () => {
    const { user } = await userWithAgent();
    for (const [slug, body] of [
      ['venue-finder', { action: 'search', city: 'Berlin', type: 'club', capacity: 300, maxPrice: 2000 }],
      ['festival-finder', { action: 'search', genre: 'techno', country: 'DE', maxPrice: 200 }],
      ['track-archaeologist', { action: 'search', bpm: 124, genre: 'house', mood: 'warm' }],
      ['visual-synthesizer', { prompt: 'a neon poster', style: 'retro' }],
      ['email', { action: 'send', to: 'fan@example.test', subject: 'Hi', text: 'Hello' }],
      ['usdc-payments', { action: 'balance' }],
      ['team-chat-channel', { action: 'send', to: '#general', text: 'hi' }],
      ['dj-streaming', { action: 'start', title: 'Friday set' }],
    ] as const) {
      const res = await callSkill(user, slug, body);
      expect({ slug, status: res.status, code: res.body.code }).toEqual({ slug, status: 501, code: 'NOT_CONFIGURED' });
    }
  });

  it('when the slug is unknown, then 404', async () => {
    const { user } = await userWithAgent();
    const res = await callSkill(user, 'no-such-skill', { action: 'search' });
    expect(res).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('when the action is unknown or the body has the wrong shape, then 400 VALIDATION_ERROR with details, and nothing is written', async () => {
    const { user } = await userWithAgent();
    const before = await allInstalls();
    const unknown = await callSkill(user, 'venue-finder', { action: 'book' });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', details: [{ path: 'action' }], allowed: ['search'] } });
    for (const [slug, body] of [
      ['venue-finder', {}],
      ['venue-finder', { action: 'search' }],
      ['venue-finder', { action: 'search', city: 'Berlin', capacity: 'big' }],
      ['venue-finder', { action: 'search', city: 'Berlin', extra: 1 }],
      ['visual-synthesizer', { style: 'retro' }],
      ['email', { action: 'send', to: 'not an address', subject: 'Hi', text: 'x' }],
      ['usdc-payments', { action: 'send', to: '0x1234', amount: '1' }],
    ] as const) {
      const res = await callSkill(user, slug, body);
      expect({ slug, body, status: res.status, code: res.body.code }).toEqual({ slug, body, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    expect(await allInstalls()).toEqual(before);
  });

  it('when there are no credentials, then 401', async () => {
    const res = await call(app, { method: 'POST', url: '/api/skills/venue-finder', payload: { action: 'search', city: 'Berlin' } });
    expect(res).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
  });
});

describe('/api/agent skills and update_skill', () => {
  it('when skills are installed, then the skills action lists them with enabled, per agent or for all agents', async () => {
    const { user, agent } = await userWithAgent('solo');
    await install(user, { skillId: 'email', agentId: agent.id });
    await install(user, { skillId: 'browser', agentId: agent.id });
    const res = await agentApi(user, `?action=skills&agentId=${agent.id}`);
    expect(res.status).toBe(200);
    expect(res.body.skills).toEqual([
      { agentId: agent.id, skillId: 'email', installedAt: expect.any(String), enabled: true },
      { agentId: agent.id, skillId: 'browser', installedAt: expect.any(String), enabled: true },
    ]);
    expect((await agentApi(user, '?action=skills')).body).toEqual(res.body);
  });

  it('when update_skill disables and enables a skill, then it is toggled and answered', async () => {
    const { user, agent } = await userWithAgent();
    await install(user, { skillId: 'email', agentId: agent.id });
    const off = await agentPost(user, { action: 'update_skill', agentId: agent.id, skillId: 'email', enabled: false });
    expect(off).toMatchObject({ status: 200, body: { success: true, skill: { agentId: agent.id, skillId: 'email', enabled: false, installedAt: expect.any(String) } } });
    expect(await installs(agent.id)).toEqual([{ skill_id: 'email', version: '1.0.0', enabled: false }]);
    expect((await agentApi(user, `?action=skills&agentId=${agent.id}`)).body.skills[0].enabled).toBe(false);
    await agentPost(user, { action: 'update_skill', agentId: agent.id, skillId: 'email', enabled: true });
    expect(await installs(agent.id)).toEqual([{ skill_id: 'email', version: '1.0.0', enabled: true }]);
  });

  it("when update_skill names a skill not installed, or another user's agent, then 404 and nothing changes", async () => {
    const a = await userWithAgent();
    const b = await userWithAgent();
    await install(b.user, { skillId: 'email', agentId: b.agent.id });
    const before = await allInstalls();
    for (const payload of [
      { agentId: a.agent.id, skillId: 'email', enabled: false },
      { agentId: a.agent.id, skillId: 'no-such-skill', enabled: false },
      { agentId: b.agent.id, skillId: 'email', enabled: false },
    ]) {
      const res = await agentPost(a.user, { action: 'update_skill', ...payload });
      expect({ payload, status: res.status, code: res.body.code }).toEqual({ payload, status: 404, code: 'NOT_FOUND' });
    }
    expect((await agentApi(a.user, `?action=skills&agentId=${b.agent.id}`)).status).toBe(404);
    expect(await allInstalls()).toEqual(before);
  });
});
