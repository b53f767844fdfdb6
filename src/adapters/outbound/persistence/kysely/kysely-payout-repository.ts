import { sql, type Kysely, type Selectable } from 'kysely';
import type { NewPayout, PayoutRepository, UnfinishedPayouts } from '../../../../application/ports/payout-repository.port.js';
import { isUniqueViolation } from '../pg-errors.js';
import type { Payout, RecordOutcome, SignedTransfer } from '../../../../domain/wallets/payout.js';
import type { Database, WalletPayoutsTable } from './database.js';
import { isUuid } from './skill-state-ids.js';

const clip = (text: string) => text.slice(0, 500);
/** The earlier unmined transfers sent again ahead of a new one: a wallet rarely has more waiting. */
const UNMINED_REBROADCAST_LIMIT = 20;

/**
 * The acting user's payouts (RLS scoped). Status moves are guarded by the status they leave; the
 * move to `submitted` also by the claim that allows it (docs/decisions/0414).
 */
export class KyselyPayoutRepository implements PayoutRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: string, p: NewPayout): Promise<Payout> {
    const row = await this.db
      .insertInto('wallet_payouts')
      .values({
        user_id: userId,
        execution_id: p.executionId,
        position: p.position,
        idempotency_key: p.idempotencyKey,
        request_hash: p.requestHash,
        to_address: p.to.toLowerCase(),
        amount: p.amount.toString(),
        amount_cents: p.amountCents,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toPayout(row);
  }

  async get(id: string): Promise<Payout | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('wallet_payouts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPayout(row) : null;
  }

  async getForUpdate(id: string): Promise<Payout | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('wallet_payouts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return row ? toPayout(row) : null;
  }

  async listForExecutions(executionIds: readonly string[]): Promise<Payout[]> {
    if (executionIds.length === 0) return [];
    const rows = await this.db.selectFrom('wallet_payouts').selectAll().where('execution_id', 'in', [...executionIds]).orderBy('execution_id').orderBy('position').execute();
    return rows.map(toPayout);
  }

  async byIdempotencyKey(key: string): Promise<Payout | null> {
    const row = await this.db.selectFrom('wallet_payouts').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
    return row ? toPayout(row) : null;
  }

  async recentSameRequest(requestHash: string, since: Date): Promise<Payout | null> {
    const row = await this.db
      .selectFrom('wallet_payouts')
      .selectAll()
      .where('request_hash', '=', requestHash)
      .where('idempotency_key', 'is', null)
      .where('execution_id', 'is', null)
      // an unfinished one is the same send however old: sending again could pay twice
      .where((eb) => eb.or([eb('created_at', '>=', since), eb('status', 'not in', ['confirmed', 'failed'])]))
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toPayout(row) : null;
  }

  async countUnfinished(): Promise<number> {
    const row = await this.db.selectFrom('wallet_payouts').select((eb) => eb.fn.countAll<string>().as('n')).where('status', 'not in', ['confirmed', 'failed']).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async lockRequest(key: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`wallet-payout-request:${key}`}, 0))`.execute(this.db);
  }

  async claim(id: string, leaseMs: number): Promise<string | null> {
    if (!isUuid(id)) return null;
    // one statement decides: a pending payout nobody holds, or whose holder's lease ran out
    const row = await this.db
      .updateTable('wallet_payouts')
      .set({ claim_token: sql<string>`gen_random_uuid()`, claimed_at: sql<Date>`clock_timestamp()`, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claim_token', 'is', null), eb('claimed_at', '<', sql<Date>`clock_timestamp() - make_interval(secs => ${leaseMs / 1000})`)]))
      .returning('claim_token')
      .executeTakeFirst();
    return row?.claim_token ?? null;
  }

  async markSubmitted(id: string, claim: string, s: SignedTransfer): Promise<RecordOutcome> {
    // the unique index on (from_address, nonce) decides a race for one nonce; its loser rolls back to here
    await sql`savepoint record_signed`.execute(this.db);
    try {
      const moved = await this.db
        .updateTable('wallet_payouts')
        .set({
          status: 'submitted', from_address: s.from.toLowerCase(), transaction_hash: s.hash.toLowerCase(), nonce: s.nonce, raw_transaction: s.raw,
          last_error: null, claim_token: null, claimed_at: null, updated_at: new Date(),
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('claim_token', '=', claim)
        .executeTakeFirst();
      return moved.numUpdatedRows > 0n ? 'recorded' : 'lost';
    } catch (err) {
      if (!isUniqueViolation(err, 'wallet_payouts_nonce_once')) throw err;
      await sql`rollback to savepoint record_signed`.execute(this.db);
      return 'nonce-taken';
    }
  }

  async nextNonce(from: string): Promise<number> {
    const row = await this.db.selectFrom('wallet_payouts').select((eb) => eb.fn.max('nonce').as('last')).where('from_address', '=', from.toLowerCase()).executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  async unminedBefore(from: string, nonce: number): Promise<`0x${string}`[]> {
    const rows = await this.db
      .selectFrom('wallet_payouts')
      .select('raw_transaction')
      .where('from_address', '=', from.toLowerCase())
      .where('status', '=', 'submitted')
      .where('nonce', '<', nonce.toString())
      .orderBy('nonce')
      .limit(UNMINED_REBROADCAST_LIMIT)
      .execute();
    return rows.map((r) => r.raw_transaction as `0x${string}`);
  }

  async releaseClaim(id: string, claim: string): Promise<void> {
    await this.db.updateTable('wallet_payouts').set({ claim_token: null, claimed_at: null }).where('id', '=', id).where('status', '=', 'pending').where('claim_token', '=', claim).execute();
  }

  async markConfirmed(id: string): Promise<void> {
    await this.move(id, ['submitted'], { status: 'confirmed', last_error: null });
  }

  async markFailed(id: string, reason: string): Promise<void> {
    await this.move(id, ['pending', 'submitted'], { status: 'failed', last_error: clip(reason), claim_token: null, claimed_at: null });
  }

  async park(id: string, reason: string): Promise<void> {
    await this.db
      .updateTable('wallet_payouts')
      .set({ parked_at: sql<Date>`coalesce(parked_at, clock_timestamp())`, last_error: clip(reason), updated_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'submitted')
      .execute();
  }

  async reopen(id: string): Promise<Payout> {
    // never a reverted one: only a payout that has no signed transaction may be sent again
    const row = await this.db
      .updateTable('wallet_payouts')
      .set({ status: 'pending', last_error: null, claim_token: null, claimed_at: null, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .where('transaction_hash', 'is', null)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toPayout(row);
  }

  async noteError(id: string, error: string): Promise<void> {
    await this.db.updateTable('wallet_payouts').set({ last_error: clip(error), updated_at: new Date() }).where('id', '=', id).execute();
  }

  private async move(id: string, from: Payout['status'][], set: Partial<Record<keyof WalletPayoutsTable, unknown>>): Promise<void> {
    const moved = await this.db
      .updateTable('wallet_payouts')
      .set({ ...(set as object), updated_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    if (moved.numUpdatedRows > 0n) return;
    // two runs that saw the same outcome (an inline attempt and its job): the second finds it done
    const now = await this.db.selectFrom('wallet_payouts').select('status').where('id', '=', id).executeTakeFirst();
    if (now?.status !== set.status) throw new Error(`payout ${id} is not ${from.join(' or ')} (it is ${now?.status ?? 'gone'})`);
  }
}

const toPayout = (r: Selectable<WalletPayoutsTable>): Payout => ({
  id: r.id,
  userId: r.user_id,
  executionId: r.execution_id,
  position: r.position,
  idempotencyKey: r.idempotency_key,
  requestHash: r.request_hash,
  to: r.to_address as `0x${string}`,
  amount: BigInt(r.amount),
  amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
  status: r.status,
  from: r.from_address,
  transactionHash: r.transaction_hash as `0x${string}` | null,
  nonce: r.nonce === null ? null : Number(r.nonce),
  rawTransaction: r.raw_transaction as `0x${string}` | null,
  lastError: r.last_error,
  createdAt: r.created_at,
});

export class KyselyUnfinishedPayouts implements UnfinishedPayouts {
  constructor(private readonly db: Kysely<Database>) {}

  async list(before: Date, limit: number): Promise<{ userId: string; payoutId: string }[]> {
    const rows = await this.db
      .selectFrom('wallet_payouts')
      .select(['id', 'user_id'])
      .where('status', 'in', ['pending', 'submitted'])
      .where('updated_at', '<', before)
      .orderBy('created_at')
      .orderBy('execution_id')
      .orderBy('position')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ userId: r.user_id, payoutId: r.id }));
  }
}
