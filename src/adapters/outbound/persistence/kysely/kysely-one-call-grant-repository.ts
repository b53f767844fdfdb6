import { sql, type Kysely } from 'kysely';
import type {
  GrantPaidOutcome,
  OneCallGrantRepository,
  SystemOneCallGrantRepository,
} from '../../../../application/ports/one-call-grant-repository.port.js';
import type { GatewayPluginId } from '../../../../domain/gateway/gateway-plugin-id.js';
import { isUuid, type UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

/**
 * The acting user's grants. No user filter in the queries on purpose: row-level security is what
 * keeps another user's grants out (and only lets app_user move its own paid grant to consumed).
 */
export class KyselyOneCallGrantRepository implements OneCallGrantRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async open(grant: { id: string; plugin: GatewayPluginId; sessionId: string }): Promise<void> {
    await this.db
      .insertInto('one_call_grants')
      .values({ id: grant.id, user_id: this.userId, plugin: grant.plugin, session_id: grant.sessionId })
      .execute();
  }

  async takeOne(plugin: GatewayPluginId): Promise<string | null> {
    // SKIP LOCKED: a concurrent taker moves on (to another grant, or to none) instead of waiting
    // and then re-reading a row that is no longer paid.
    const row = await this.db
      .updateTable('one_call_grants')
      .set({ status: 'consumed', consumed_at: sql`now()` })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('one_call_grants')
          .select('id')
          .where('plugin', '=', plugin)
          .where('status', '=', 'paid')
          .orderBy('paid_at')
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }
}

export class KyselySystemOneCallGrantRepository implements SystemOneCallGrantRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async markPaid(p: { grantId: string; userId: UserId; plugin: GatewayPluginId; sessionId: string; eventId: string }): Promise<GrantPaidOutcome> {
    if (!isUuid(p.grantId)) return 'unknown';
    const matching = this.db
      .selectFrom('one_call_grants')
      .where('id', '=', p.grantId)
      .where('user_id', '=', p.userId)
      .where('plugin', '=', p.plugin)
      .where('session_id', '=', p.sessionId);
    // Under the row's lock, so two events about one session cannot both see it pending.
    const row = await matching.select('status').forUpdate().executeTakeFirst();
    if (!row) return 'unknown';
    if (row.status !== 'pending') return 'already-paid';
    await this.db
      .updateTable('one_call_grants')
      .set({ status: 'paid', paid_at: sql`now()`, paid_event_id: p.eventId })
      .where('id', '=', p.grantId)
      .execute();
    return 'paid';
  }

  async restore(grantId: string): Promise<boolean> {
    if (!isUuid(grantId)) return false;
    const row = await this.db
      .updateTable('one_call_grants')
      .set({ status: 'paid', consumed_at: null })
      .where('id', '=', grantId)
      .where('status', '=', 'consumed')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
