import type { Kysely } from 'kysely';
import type { PaymentCustomerRepository, SystemPaymentCustomerRepository } from '../../../../application/ports/payment-customer-repository.port.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

/** The acting user's processor customer (RLS scoped). */
export class KyselyPaymentCustomerRepository implements PaymentCustomerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async mine(): Promise<string | null> {
    const row = await this.db.selectFrom('payment_customers').select('customer_id').executeTakeFirst();
    return row?.customer_id ?? null;
  }
}

export class KyselySystemPaymentCustomerRepository implements SystemPaymentCustomerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async userOf(customerId: string): Promise<UserId | null> {
    const row = await this.db.selectFrom('payment_customers').select('user_id').where('customer_id', '=', customerId).executeTakeFirst();
    return (row?.user_id as UserId | undefined) ?? null;
  }

  async remember(userId: UserId, customerId: string): Promise<void> {
    // No conflict target: a duplicate user or a duplicate customer id both leave the first row.
    await this.db.insertInto('payment_customers').values({ user_id: userId, customer_id: customerId }).onConflict((oc) => oc.doNothing()).execute();
  }
}
