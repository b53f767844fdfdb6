import type { UserId } from '../../domain/shared/ids.js';

/** The acting user's processor customer (user unit of work, read only). */
export interface PaymentCustomerRepository {
  /** The processor customer id stored for the acting user, or null before their first checkout. */
  mine(): Promise<string | null>;
}

/** Processor customers across users (system unit of work). */
export interface SystemPaymentCustomerRepository {
  /** The user a processor customer belongs to. */
  userOf(customerId: string): Promise<UserId | null>;
  /**
   * Stores the user's customer id unless the user (or the customer id) already has a row: the
   * first one stored wins and is reused for every later checkout. Never throws on a duplicate.
   */
  remember(userId: UserId, customerId: string): Promise<void>;
}
