import { sql, type Kysely } from 'kysely';
import type { StoredChallenge } from '../../../../domain/gateway/mpp.js';
import type { ConsumedPayment, MppLedger, NewChallenge, PaymentRetry, RecordedPayment } from '../../../../application/ports/mpp-ledger.port.js';
import type { Database } from './database.js';

/**
 * MPP challenges and payments. `consume` is two statements in the caller's transaction: the
 * conditional UPDATE of the challenge (its row lock serialises racers on one nonce; a loser
 * re-reads `consumed_at` after the winner commits and updates nothing), then the payment's
 * INSERT, whose unique constraints on nonce and hash serialise racers on one transaction.
 */
export class KyselyMppLedger implements MppLedger {
  constructor(private readonly db: Kysely<Database>) {}

  async saveChallenge(c: NewChallenge): Promise<void> {
    await this.db
      .insertInto('mpp_challenges')
      .values({
        nonce: c.nonce,
        plugin: c.plugin,
        amount: c.amount.toString(),
        token: c.token,
        recipient: c.recipient,
        body_digest: Buffer.from(c.bodyDigest, 'hex'),
        issued_at: c.issuedAt,
        expires_at: c.expiresAt,
      })
      .execute();
  }

  async findChallenge(nonce: string): Promise<StoredChallenge | null> {
    const r = await this.db.selectFrom('mpp_challenges').selectAll().where('nonce', '=', nonce).executeTakeFirst();
    if (!r) return null;
    return {
      nonce: r.nonce,
      plugin: r.plugin,
      amount: BigInt(r.amount),
      token: r.token,
      recipient: r.recipient,
      bodyDigest: r.body_digest.toString('hex'),
      issuedAt: r.issued_at,
      expiresAt: r.expires_at,
      consumed: r.consumed_at !== null,
    };
  }

  async consume(p: ConsumedPayment, now: Date): Promise<'consumed' | 'nonce_used' | 'tx_used'> {
    const taken = await this.db
      .updateTable('mpp_challenges')
      .set({ consumed_at: now })
      .where('nonce', '=', p.nonce)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (taken.numUpdatedRows === 0n) return 'nonce_used';
    const inserted = await this.db
      .insertInto('mpp_payments')
      .values({ challenge_nonce: p.nonce, tx_hash: p.txHash, payer: p.payer, amount: p.amount.toString(), plugin: p.plugin })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n ? 'consumed' : 'tx_used';
  }

  async consumeChallenge(nonce: string, now: Date): Promise<boolean> {
    const taken = await this.db
      .updateTable('mpp_challenges')
      .set({ consumed_at: now })
      .where('nonce', '=', nonce)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return taken.numUpdatedRows > 0n;
  }

  async releaseChallenge(nonce: string, consumedAt: Date): Promise<void> {
    await this.db
      .updateTable('mpp_challenges')
      .set({ consumed_at: null })
      .where('nonce', '=', nonce)
      .where('consumed_at', '=', consumedAt)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('mpp_payments as p').select(sql.lit(1).as('one')).whereRef('p.challenge_nonce', '=', 'mpp_challenges.nonce'))))
      .execute();
  }

  async findPayment(nonce: string): Promise<RecordedPayment | null> {
    const r = await this.db.selectFrom('mpp_payments').select(['tx_hash', 'status', 'attempts']).where('challenge_nonce', '=', nonce).executeTakeFirst();
    return r ? { txHash: r.tx_hash, status: r.status, attempts: r.attempts } : null;
  }

  async transactionUsed(txHash: string): Promise<boolean> {
    const r = await this.db.selectFrom('mpp_payments').select('tx_hash').where('tx_hash', '=', txHash).executeTakeFirst();
    return r !== undefined;
  }

  async claimRetry(retry: PaymentRetry): Promise<boolean> {
    // the payment's challenge row holds what it bound (app_system may change only its consumed_at,
    // and may delete only unconsumed ones): the retry must name the same request
    const r = await this.db
      .updateTable('mpp_payments')
      .set({ status: 'retrying', attempts: sql`attempts + 1`, updated_at: sql`now()` })
      .where('challenge_nonce', '=', retry.nonce)
      .where('tx_hash', '=', retry.txHash)
      .where('status', '=', 'failed')
      .where('attempts', '<', 2)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('mpp_challenges as c')
            .select(sql.lit(1).as('one'))
            .whereRef('c.nonce', '=', 'mpp_payments.challenge_nonce')
            .where('c.plugin', '=', retry.plugin)
            .where('c.body_digest', '=', Buffer.from(retry.bodyDigest, 'hex'))
            .where('c.amount', '=', retry.amount.toString()),
        ),
      )
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async markServed(nonce: string): Promise<void> {
    await this.db
      .updateTable('mpp_payments')
      .set({ status: 'served', failure: null, updated_at: sql`now()` })
      .where('challenge_nonce', '=', nonce)
      .execute();
  }

  async markFailed(nonce: string, failure: string): Promise<void> {
    await this.db
      .updateTable('mpp_payments')
      .set({ status: 'failed', failure: failure.slice(0, 500), updated_at: sql`now()` })
      .where('challenge_nonce', '=', nonce)
      .execute();
  }

  async purgeExpired(cutoff: Date): Promise<number> {
    const r = await this.db.deleteFrom('mpp_challenges').where('consumed_at', 'is', null).where('expires_at', '<', cutoff).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
