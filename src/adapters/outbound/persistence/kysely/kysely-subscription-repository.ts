import { sql, type Kysely } from 'kysely';
import type {
  SubscriptionFacts,
  SubscriptionRecord,
  SubscriptionRepository,
  SubscriptionState,
  SystemSubscriptionRepository,
} from '../../../../application/ports/subscription-repository.port.js';
import type { Database } from './database.js';
import { SUBSCRIPTION_COLUMNS, toSubscription } from './subscription-row.js';

/** The acting user's subscriptions: RLS scopes every statement to them. */
export class KyselySubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<SubscriptionRecord[]> {
    const rows = await this.db.selectFrom('subscriptions').select(SUBSCRIPTION_COLUMNS).orderBy('last_event_at', 'desc').orderBy('processor_subscription_id').execute();
    return rows.map(toSubscription);
  }

  async get(processorId: string): Promise<SubscriptionRecord | null> {
    const row = await this.db.selectFrom('subscriptions').select(SUBSCRIPTION_COLUMNS).where('processor_subscription_id', '=', processorId).executeTakeFirst();
    return row ? toSubscription(row) : null;
  }
}

/** Subscriptions across users, for the webhook's system unit of work. */
export class KyselySystemSubscriptionRepository implements SystemSubscriptionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async lock(processorId: string): Promise<SubscriptionRecord | null> {
    const row = await this.db
      .selectFrom('subscriptions')
      .select(SUBSCRIPTION_COLUMNS)
      .where('processor_subscription_id', '=', processorId)
      .forUpdate()
      .executeTakeFirst();
    return row ? toSubscription(row) : null;
  }

  async insert(processorId: string, facts: SubscriptionFacts, state: SubscriptionState): Promise<boolean> {
    const r = await this.db
      .insertInto('subscriptions')
      .values({
        processor_subscription_id: processorId,
        user_id: facts.userId ?? null,
        customer_id: facts.customerId ?? null,
        kind: facts.kind ?? null,
        catalog: facts.plan?.catalog ?? null,
        plan: facts.plan?.plan ?? null,
        status: state.status,
        current_period_end: state.currentPeriodEnd ?? null,
        last_event_at: state.lastEventAt,
      })
      .onConflict((oc) => oc.column('processor_subscription_id').doNothing())
      .executeTakeFirst();
    return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async update(processorId: string, facts: SubscriptionFacts, state: SubscriptionState | null): Promise<void> {
    // Facts only fill gaps: the first event that knew the owner or plan decided it.
    const plan = facts.plan;
    await this.db
      .updateTable('subscriptions')
      .set({
        ...(facts.userId ? { user_id: sql<string>`coalesce(user_id, ${facts.userId}::uuid)` } : {}),
        ...(facts.customerId ? { customer_id: sql<string>`coalesce(customer_id, ${facts.customerId})` } : {}),
        ...(facts.kind ? { kind: sql<NonNullable<SubscriptionFacts['kind']>>`coalesce(kind, ${facts.kind})` } : {}),
        // catalog and plan move together (a CHECK constraint holds them so).
        ...(state?.plan
          ? { catalog: state.plan.catalog, plan: state.plan.plan }
          : plan
          ? {
              catalog: sql<string>`coalesce(catalog, ${plan.catalog})`,
              plan: sql<string>`case when catalog is null then ${plan.plan} else plan end`,
            }
          : {}),
        ...(state
          ? {
              status: state.status,
              last_event_at: state.lastEventAt,
              ...(state.currentPeriodEnd ? { current_period_end: state.currentPeriodEnd } : {}),
            }
          : {}),
        updated_at: sql<Date>`now()`,
      })
      .where('processor_subscription_id', '=', processorId)
      .execute();
  }
}
