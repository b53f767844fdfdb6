import { sql, type Kysely } from 'kysely';
import type { AgentStatus } from '../../../../domain/agents/agent-status.js';
import type { Instance } from '../../../../domain/agents/instance.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { InstanceRepository, NewInstance, RuntimeCaller, SystemInstanceRepository } from '../../../../application/ports/instance-repository.port.js';
import { isUuid } from '../../../../domain/shared/ids.js';
import type { SealedSecret } from '../../../../application/ports/secret-box.port.js';
import type { Database } from './database.js';
import { subscriptionFromText } from './subscription-text.js';

/** The columns app_user may read: everything but the gateway token's. */
const COLUMNS = ['user_id', 'status', 'started_at', 'subdomain', 'url', 'plan', 'runtime_version'] as const;

const toInstance = (r: { user_id: string; status: string; started_at: Date | null; subdomain: string; url: string; plan: string; runtime_version: string }): Instance => ({
  userId: r.user_id,
  status: r.status as AgentStatus,
  startedAt: r.started_at,
  subdomain: r.subdomain,
  url: r.url,
  plan: r.plan,
  runtimeVersion: r.runtime_version,
});

/** Inserts an instance; false, changing nothing, when the user already has one. */
async function insertInstance(db: Kysely<Database>, i: NewInstance): Promise<boolean> {
  const r = await db
    .insertInto('instances')
    .values({
      user_id: i.userId,
      status: i.status,
      started_at: i.startedAt,
      subdomain: i.subdomain,
      url: i.url,
      plan: i.plan,
      runtime_version: i.runtimeVersion,
      gateway_token_key_id: i.gatewayToken.sealed.keyId,
      gateway_token_sealed: i.gatewayToken.sealed.ciphertext,
      gateway_token_hash: i.gatewayToken.hash,
      ram_gb: i.ramGb,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export class KyselyInstanceRepository implements InstanceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(): Promise<Instance | null> {
    const row = await this.db.selectFrom('instances').select(COLUMNS).executeTakeFirst();
    return row ? toInstance(row) : null;
  }

  insertIfMissing(i: NewInstance): Promise<boolean> {
    return insertInstance(this.db, i);
  }
}

export class KyselySystemInstanceRepository implements SystemInstanceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async lock(userId: UserId): Promise<(Instance & { gatewayToken: SealedSecret; ramGb: number }) | null> {
    const row = await this.db
      .selectFrom('instances')
      .select([...COLUMNS, 'gateway_token_key_id', 'gateway_token_sealed', 'ram_gb'])
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    return row ? { ...toInstance(row), gatewayToken: { keyId: row.gateway_token_key_id, ciphertext: row.gateway_token_sealed }, ramGb: Number(row.ram_gb) } : null;
  }

  async rotateGatewayToken(userId: UserId, token: { sealed: SealedSecret; hash: Buffer }): Promise<void> {
    await this.db
      .updateTable('instances')
      .set({ gateway_token_key_id: token.sealed.keyId, gateway_token_sealed: token.sealed.ciphertext, gateway_token_hash: token.hash, updated_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .execute();
  }

  async setRamGb(userId: UserId, ramGb: number): Promise<void> {
    await this.db.updateTable('instances').set({ ram_gb: ramGb }).where('user_id', '=', userId).execute();
  }

  insert(i: NewInstance): Promise<boolean> {
    return insertInstance(this.db, i);
  }

  async setState(userId: UserId, state: { status: AgentStatus; startedAt: Date | null }): Promise<void> {
    await this.db.updateTable('instances').set({ status: state.status, started_at: state.startedAt, updated_at: sql<Date>`now()` }).where('user_id', '=', userId).execute();
  }

  async ownerOfToken(tokenHash: Buffer): Promise<UserId | null> {
    const row = await this.db.selectFrom('instances').select('user_id').where('gateway_token_hash', '=', tokenHash).executeTakeFirst();
    return row ? (row.user_id as UserId) : null;
  }

  async runtimeCaller(tokenHash: Buffer, agentId: string): Promise<RuntimeCaller | null> {
    // subscriptions as 'status:catalog:plan' text (subscription-text.ts), NULL parts as ''
    const { rows } = await sql<{ user_id: string; owns_agent: boolean; email: string; email_verified_at: Date | null; subscriptions: string[]; byok_providers: string[] }>`
      SELECT i.user_id, EXISTS (SELECT 1 FROM agents a WHERE a.id = ${isUuid(agentId) ? agentId : null}::uuid AND a.user_id = i.user_id) AS owns_agent,
             u.email, u.email_verified_at,
             ARRAY(SELECT s.status || ':' || coalesce(s.catalog, '') || ':' || coalesce(s.plan, '') FROM subscriptions s WHERE s.user_id = i.user_id) AS subscriptions,
             ARRAY(SELECT k.provider FROM byok_keys k WHERE k.user_id = i.user_id) AS byok_providers
        FROM instances i JOIN users u ON u.id = i.user_id
       WHERE i.gateway_token_hash = ${tokenHash}`.execute(this.db);
    const r = rows[0];
    if (!r) return null;
    return {
      userId: r.user_id as UserId,
      ownsAgent: r.owns_agent,
      email: r.email,
      emailVerified: r.email_verified_at !== null,
      subscriptions: r.subscriptions.flatMap(subscriptionFromText),
      byokProviders: r.byok_providers,
    };
  }
}
