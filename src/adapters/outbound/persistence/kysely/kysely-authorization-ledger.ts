import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { AuthorizationBinding, AuthorizationClaim, AuthorizationKey, AuthorizationLedger, RecordedAuthorization } from '../../../../application/ports/authorization-ledger.port.js';
import type { SignedSettlement } from '../../../../application/ports/transfer-authorization-chain.port.js';
import type { Hex } from '../../../../domain/gateway/transfer-authorization.js';
import type { Database } from './database.js';
import { isUniqueViolation } from '../pg-errors.js';

/**
 * EIP-3009 payments and their settlements (`mpp_authorizations`), and the settlers' leases. Every
 * change is one conditional statement: the primary key (token, payer, nonce) and the row lock decide
 * racers on one authorization, the unique (settler, settler_nonce) racers on one nonce.
 */
export class KyselyAuthorizationLedger implements AuthorizationLedger {
  constructor(private readonly db: Kysely<Database>) {}

  async find(key: AuthorizationKey): Promise<RecordedAuthorization | null> {
    const r = await this.db.selectFrom('mpp_authorizations').selectAll().where('token', '=', key.token).where('payer', '=', key.payer).where('nonce', '=', key.nonce).executeTakeFirst();
    if (!r) return null;
    return {
      status: r.status,
      signature: r.signature as Hex,
      binding: { plugin: r.plugin, bodyDigest: r.body_digest.toString('hex'), amount: BigInt(r.amount) },
      claimedAt: r.claimed_at,
      settlement:
        r.settler && r.settler_nonce !== null && r.tx_hash && r.raw_tx
          ? { settler: r.settler as Hex, nonce: r.settler_nonce, hash: r.tx_hash as Hex, raw: r.raw_tx as Hex }
          : null,
    };
  }

  async claim(c: AuthorizationClaim, now: Date, staleBefore: Date): Promise<boolean> {
    const a = c.signed.authorization;
    const values = {
      recipient: a.to,
      value: a.value.toString(),
      valid_after: a.validAfter.toString(),
      valid_before: a.validBefore.toString(),
      signature: c.signed.signature,
      plugin: c.binding.plugin,
      amount: c.binding.amount.toString(),
      body_digest: Buffer.from(c.binding.bodyDigest, 'hex'),
      status: 'claimed' as const,
      claim_token: c.claimToken,
      claimed_at: now,
    };
    const row = await this.db
      .insertInto('mpp_authorizations')
      .values({ token: c.key.token, payer: c.key.payer, nonce: c.key.nonce, ...values })
      .onConflict((oc) =>
        oc
          .columns(['token', 'payer', 'nonce'])
          .doUpdateSet({ ...values, settler: null, settler_nonce: null, tx_hash: null, raw_tx: null, failure: null, attempts: 1, updated_at: now })
          // a claim whose holder died before signing anything, or a settlement that reverted (nothing moved)
          .where((eb) =>
            eb.or([
              eb.and([eb('mpp_authorizations.status', '=', 'claimed'), eb('mpp_authorizations.claimed_at', '<', staleBefore)]),
              eb('mpp_authorizations.status', '=', 'reverted'),
            ]),
          ),
      )
      .returning('claim_token')
      .executeTakeFirst();
    return row?.claim_token === c.claimToken;
  }

  async release(key: AuthorizationKey, claimToken: string): Promise<void> {
    await this.db.deleteFrom('mpp_authorizations').where(byKey(key)).where('status', '=', 'claimed').where('claim_token', '=', claimToken).execute();
  }

  async nextSettlerNonce(settler: Hex): Promise<number> {
    const row = await this.db.selectFrom('mpp_authorizations').select((eb) => eb.fn.max('settler_nonce').as('last')).where('settler', '=', settler).executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  async recordSubmitted(key: AuthorizationKey, claimToken: string, s: SignedSettlement, now: Date): Promise<'recorded' | 'nonce-taken' | 'lost'> {
    // the unique index on (settler, settler_nonce) decides a race for one nonce; its loser rolls back to here
    await sql`savepoint record_settlement`.execute(this.db);
    try {
      const moved = await this.db.updateTable('mpp_authorizations').where(byKey(key))
        .set({ status: 'submitted', settler: s.settler, settler_nonce: s.nonce, tx_hash: s.hash, raw_tx: s.raw, claim_token: null, updated_at: now })
        .where('status', '=', 'claimed')
        .where('claim_token', '=', claimToken)
        .executeTakeFirst();
      return moved.numUpdatedRows > 0n ? 'recorded' : 'lost';
    } catch (err) {
      if (!isUniqueViolation(err, 'mpp_authorizations_settler_nonce')) throw err;
      await sql`rollback to savepoint record_settlement`.execute(this.db);
      return 'nonce-taken';
    }
  }

  async unminedBefore(settler: Hex, nonce: number): Promise<Hex[]> {
    const rows = await this.db
      .selectFrom('mpp_authorizations')
      .select('raw_tx')
      .where('settler', '=', settler)
      .where('status', '=', 'submitted')
      .where('settler_nonce', '<', nonce)
      .orderBy('settler_nonce')
      .execute();
    return rows.map((r) => r.raw_tx as Hex);
  }

  async markSettled(key: AuthorizationKey, txHash: Hex): Promise<boolean> {
    const r = await this.db.updateTable('mpp_authorizations').where(byKey(key))
      .set({ status: 'settled', updated_at: sql`now()` })
      .where('status', '=', 'submitted')
      .where('tx_hash', '=', txHash)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async markReverted(key: AuthorizationKey, txHash: Hex, failure: string): Promise<void> {
    await this.db.updateTable('mpp_authorizations').where(byKey(key))
      .set({ status: 'reverted', failure: failure.slice(0, 500), updated_at: sql`now()` })
      .where('status', '=', 'submitted')
      .where('tx_hash', '=', txHash)
      .execute();
  }

  async claimRetry(key: AuthorizationKey, binding: AuthorizationBinding): Promise<boolean> {
    const r = await this.db.updateTable('mpp_authorizations').where(byKey(key))
      .set({ status: 'retrying', attempts: sql`attempts + 1`, updated_at: sql`now()` })
      .where('status', '=', 'failed')
      .where('attempts', '<', 2)
      .where('plugin', '=', binding.plugin)
      .where('body_digest', '=', Buffer.from(binding.bodyDigest, 'hex'))
      .where('amount', '=', binding.amount.toString())
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async markServed(key: AuthorizationKey): Promise<void> {
    await this.db.updateTable('mpp_authorizations').where(byKey(key))
      .set({ status: 'served', failure: null, updated_at: sql`now()` })
      .where('status', 'in', ['settled', 'retrying'])
      .execute();
  }

  async markFailed(key: AuthorizationKey, failure: string): Promise<void> {
    await this.db.updateTable('mpp_authorizations').where(byKey(key))
      .set({ status: 'failed', failure: failure.slice(0, 500), updated_at: sql`now()` })
      .where('status', 'in', ['settled', 'retrying'])
      .execute();
  }

  async acquireSettler(settler: Hex, holder: string, until: Date, now: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('mpp_settler_leases')
      .values({ settler, holder, expires_at: until })
      .onConflict((oc) => oc.column('settler').doUpdateSet({ holder, expires_at: until }).where('mpp_settler_leases.expires_at', '<', now))
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  async releaseSettler(settler: Hex, holder: string): Promise<void> {
    await this.db.deleteFrom('mpp_settler_leases').where('settler', '=', settler).where('holder', '=', holder).execute();
  }
}

/** One authorization's row. */
const byKey = (key: AuthorizationKey) => (eb: ExpressionBuilder<Database, 'mpp_authorizations'>) =>
  eb.and([eb('token', '=', key.token), eb('payer', '=', key.payer), eb('nonce', '=', key.nonce)]);
