import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { PgUsageMeter } from '../../../src/adapters/outbound/persistence/pg-usage-meter.js';

/**
 * SystemInstanceRepository.runtimeCaller: what authorises an agent runtime's AI call, read as
 * app_system in one statement (migration 2026_11_25_0033 lets it see which providers a user keeps
 * a BYOK key for, and nothing else of those keys).
 */
const { db, pools, uow } = await openTestPersistence();
const owner = pools.owner;

async function userWithInstance(opts: { verified?: boolean } = {}) {
  const user = await insertUser(uow, { emailVerified: opts.verified ?? true });
  const token = randomBytes(16).toString('hex');
  const hash = createHash('sha256').update(token).digest();
  await owner.query(
    `INSERT INTO instances (user_id, status, subdomain, url, plan, runtime_version, gateway_token_key_id, gateway_token_sealed, gateway_token_hash)
     VALUES ($1, 'running', $2, 'http://x', 'solo', 'v1', 'k', '\\x00', $3)`,
    [user.id, `sub-${token.slice(0, 8)}`, hash],
  );
  const agent = (await owner.query<{ id: string }>(`INSERT INTO agents (user_id, name, model, status) VALUES ($1, 'A', 'm', 'running') RETURNING id`, [user.id])).rows[0]!.id;
  return { user, hash, agent };
}

const caller = (hash: Buffer, agentId: string) => uow.statementsAsSystem((s) => s.instances.runtimeCaller(hash, agentId));

describe('the runtime caller of a gateway token', () => {
  it('names the owner, their agent, every subscription with its plan (none for an add-on) and their BYOK providers', async () => {
    const { user, hash, agent } = await userWithInstance();
    await owner.query(
      `INSERT INTO subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at) VALUES
         ($2, $1, 'subscription', 'checkout', 'network', 'active', now()),
         ($3, $1, 'subscription', 'billing', 'pro', 'canceled', now()),
         ($4, $1, 'storage', NULL, NULL, 'active', now())`,
      [user.id, `sub_${randomBytes(4).toString('hex')}`, `sub_${randomBytes(4).toString('hex')}`, `sub_${randomBytes(4).toString('hex')}`],
    );
    await owner.query(`INSERT INTO byok_keys (user_id, provider, key_id, ciphertext) VALUES ($1, 'openai', 'k1', '\\x00'), ($1, 'anthropic', 'k2', '\\x00')`, [user.id]);
    const found = await caller(hash, agent);
    expect(found).toMatchObject({ userId: user.id, ownsAgent: true, email: user.email, emailVerified: true });
    expect(found!.subscriptions).toEqual(
      expect.arrayContaining([
        { status: 'active', plan: { catalog: 'checkout', plan: 'network' } },
        { status: 'canceled', plan: { catalog: 'billing', plan: 'pro' } },
        { status: 'active', plan: null },
      ]),
    );
    expect(found!.subscriptions).toHaveLength(3);
    expect([...found!.byokProviders].sort()).toEqual(['anthropic', 'openai']);
  });

  it('says when the agent is not the owner\'s (another user\'s, unknown or malformed), and answers null for an unknown token', async () => {
    const alice = await userWithInstance({ verified: false });
    const bob = await userWithInstance();
    expect(await caller(alice.hash, bob.agent)).toMatchObject({ userId: alice.user.id, ownsAgent: false, emailVerified: false, subscriptions: [], byokProviders: [] });
    expect(await caller(alice.hash, '00000000-0000-4000-8000-000000000000')).toMatchObject({ ownsAgent: false });
    expect(await caller(alice.hash, 'not-a-uuid')).toMatchObject({ ownsAgent: false });
    expect(await caller(createHash('sha256').update('unknown').digest(), alice.agent)).toBeNull();
  });

  it('the reservation\'s statement that makes the same check (reserveWithRuntimeCaller) reads exactly what runtimeCaller reads, and reserves for the payer named either way', async () => {
    const meter = new PgUsageMeter(pools.system, { adminEmails: [] });
    const alice = await userWithInstance();
    const bob = await userWithInstance({ verified: false });
    await owner.query(
      `INSERT INTO subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at) VALUES
         ($2, $1, 'subscription', 'checkout', 'network', 'active', now()), ($3, $1, 'storage', NULL, NULL, 'active', now())`,
      [alice.user.id, `sub_${randomBytes(4).toString('hex')}`, `sub_${randomBytes(4).toString('hex')}`],
    );
    await owner.query(`INSERT INTO byok_keys (user_id, provider, key_id, ciphertext) VALUES ($1, 'openai', 'k1', '\\x00'), ($1, 'anthropic', 'k2', '\\x00')`, [alice.user.id]);
    const same = (c: Awaited<ReturnType<typeof caller>>) => c && { ...c, subscriptions: [...c.subscriptions].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), byokProviders: [...c.byokProviders].sort() };
    const unknown = createHash('sha256').update('unknown').digest();
    for (const [hash, agent] of [[alice.hash, alice.agent], [alice.hash, bob.agent], [alice.hash, 'not-a-uuid'], [bob.hash, bob.agent], [unknown, alice.agent]] as const) {
      const r = await meter.reserveWithRuntimeCaller(alice.user.id, 1, hash, agent);
      expect(same(r.caller)).toEqual(same(await caller(hash, agent)));
      expect(r.taken).toMatchObject({ payer: alice.user.id, units: 1 });
      await meter.release(r.taken as { id: string });
    }
    expect(same((await meter.reserveWithRuntimeCaller(alice.user.id, 1, alice.hash, alice.agent)).caller)).toMatchObject({ userId: alice.user.id, ownsAgent: true, byokProviders: ['anthropic', 'openai'] });
    expect((await meter.reserveWithRuntimeCaller(alice.user.id, 1, unknown, alice.agent)).caller).toBeNull();
  });

  it('the system role sees which providers a user keeps a key for, never the key itself, and cannot change them', async () => {
    const c = new pg.Client({ connectionString: db.url, options: '-c role=app_system' });
    await c.connect();
    try {
      await expect(c.query('SELECT provider FROM byok_keys LIMIT 1')).resolves.toBeDefined();
      await expect(c.query('SELECT ciphertext FROM byok_keys LIMIT 1')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('SELECT key_id FROM byok_keys LIMIT 1')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query(`DELETE FROM byok_keys`)).rejects.toMatchObject({ code: '42501' });
      await expect(c.query(`UPDATE byok_keys SET provider = 'openai'`)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await c.end();
    }
  });
});
