import type { CreditPack } from '../../domain/billing/credit-packs.js';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * The ledger that makes processor events take effect once. Used only inside the system unit of
 * work, in the transaction of the effect: if the effect rolls back, so does the entry.
 */
export interface PaymentLedger {
  /**
   * Records a processor event id. True for the first recording; false when the id is already
   * there. Of concurrent transactions recording one id, one gets true and the others wait for it
   * to commit and get false (or get true if it rolled back).
   */
  recordEvent(eventId: string, type: string): Promise<boolean>;
  /**
   * Records the credits bought by one checkout session. False when that session was already
   * credited (a second event about the same payment): the caller then adds nothing.
   */
  recordCreditPurchase(p: { sessionId: string; userId: UserId; pack: CreditPack; credits: number; eventId: string }): Promise<boolean>;
}
