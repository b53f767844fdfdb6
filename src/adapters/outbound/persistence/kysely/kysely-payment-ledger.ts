import type { Kysely } from 'kysely';
import type { PaymentLedger } from '../../../../application/ports/payment-ledger.port.js';
import type { CreditPack } from '../../../../domain/billing/credit-packs.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

/**
 * INSERT ... ON CONFLICT DO NOTHING and the inserted-row count: the system role may insert into
 * these tables but not read them, so neither RETURNING nor a conflict target (which needs SELECT on
 * its columns) is used. Each table's only unique constraint is its primary key.
 */
export class KyselyPaymentLedger implements PaymentLedger {
  constructor(private readonly db: Kysely<Database>) {}

  async recordEvent(eventId: string, type: string): Promise<boolean> {
    const r = await this.db
      .insertInto('processed_events')
      .values({ event_id: eventId, type })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async recordCreditPurchase(p: { sessionId: string; userId: UserId; pack: CreditPack; credits: number; eventId: string }): Promise<boolean> {
    const r = await this.db
      .insertInto('credit_purchases')
      .values({ session_id: p.sessionId, user_id: p.userId, pack: p.pack, credits: p.credits, event_id: p.eventId })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }
}
