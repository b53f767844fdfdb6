import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { subscribe } from '../ai/chat-fixtures.js';
import { bearer, call, signIn, signUpAndIn, type SignedIn } from '../http-client.js';

/** A user of the fuzz and isolation suites: signed in by session and holding an API key, with an agent and memory. */
export interface Seeded {
  user: SignedIn;
  apiKey: string;
  apiKeyId: string;
  agentId: string;
  /** A value only this user's memory holds. */
  memoryMarker: string;
}

/** A subscribed user with an API key, an agent, a memory entry and an installed skill, all made through the endpoints. */
export async function seedUser(app: FastifyInstance, owner: Pool, label: string): Promise<Seeded> {
  const user = await signUpAndIn(app, { email: `${label}-${randomBytes(4).toString('hex')}@example.test`, name: `${label} ${randomBytes(3).toString('hex')}` });
  await subscribe(owner, user.id, 'solo');
  const key = await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: `${label} key` } });
  if (key.status !== 201 && key.status !== 200) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  const agent = await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: `${label} agent` } });
  if (agent.status !== 201) throw new Error(`agent: ${agent.status} ${JSON.stringify(agent.body)}`);
  const memoryMarker = `memory-of-${label}-${randomBytes(6).toString('hex')}`;
  const saved = await call(app, { method: 'POST', url: '/api/memory', headers: user.headers, payload: { agentId: agent.body.agent.id, key: 'secret', memory: memoryMarker } });
  if (saved.status >= 300) throw new Error(`memory: ${saved.status} ${JSON.stringify(saved.body)}`);
  return { user, apiKey: key.body.key, apiKeyId: key.body.id ?? key.body.apiKey?.id, agentId: agent.body.agent.id, memoryMarker };
}

/**
 * Signs `s` in again (and makes a new key) when a fuzzed call signed it out or revoked its key; seeds
 * a new user in its place when a fuzzed call deleted the account.
 */
export async function keepSignedIn(app: FastifyInstance, owner: Pool, s: Seeded): Promise<void> {
  const session = await call(app, { method: 'GET', url: '/api/auth/session', headers: { cookie: s.user.cookie } });
  if (!session.body?.user) {
    const again = await signIn(app, s.user.email, s.user.password).catch(() => undefined);
    if (!again) return void Object.assign(s, await seedUser(app, owner, 'again'));
    Object.assign(s.user, again);
  }
  const keyWorks = (await call(app, { method: 'GET', url: '/api/keys', headers: bearer(s.apiKey) })).status === 200;
  if (!keyWorks) {
    const key = await call(app, { method: 'POST', url: '/api/keys', headers: s.user.headers, payload: { name: 'again' } });
    s.apiKey = key.body.key;
    s.apiKeyId = key.body.id ?? s.apiKeyId;
  }
}

/** Everything that identifies `s` or is secret to it: none of it may reach anyone else. */
export const secretsOf = (s: Seeded): string[] =>
  [s.user.id, s.user.email, s.agentId, s.apiKey, s.apiKeyId, s.memoryMarker, s.user.csrf, /session=([^;]+)/.exec(s.user.cookie)?.[1]].filter((x): x is string => !!x);
