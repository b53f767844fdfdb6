import type { PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import type { SubscriptionStatus } from '../../domain/billing/subscription.js';
import type { UserId } from '../../domain/shared/ids.js';

/** What a subscription sells: a plan, or the storage add-on (which has no plan). */
export type SubscriptionKind = 'subscription' | 'storage';

/** One processor subscription as stored. */
export interface SubscriptionRecord {
  /** The processor's subscription id (`sub_...`): the key events upsert by. */
  readonly processorId: string;
  /** Null only while no event has told whose it is. */
  readonly userId: UserId | null;
  readonly customerId: string | null;
  readonly kind: SubscriptionKind | null;
  readonly plan: PurchasablePlan | null;
  readonly status: SubscriptionStatus;
  readonly currentPeriodEnd: Date | null;
  /** Creation time of the processor event that set `status`: the convergence clock. */
  readonly lastEventAt: Date;
}

/** The acting user's subscriptions (user unit of work, read only; RLS scopes them). */
export interface SubscriptionRepository {
  /** Newest state first. */
  list(): Promise<SubscriptionRecord[]>;
  /** One of the acting user's subscriptions by processor id; null when absent or someone else's. */
  get(processorId: string): Promise<SubscriptionRecord | null>;
}

/** Fields an event may know; a later event fills in what an earlier one lacked, never overwrites it. */
export interface SubscriptionFacts {
  readonly userId?: UserId | undefined;
  readonly customerId?: string | undefined;
  readonly kind?: SubscriptionKind | undefined;
  readonly plan?: PurchasablePlan | undefined;
}

/** The state an event carries; written only when the convergence rule lets it. */
export interface SubscriptionState {
  readonly status: SubscriptionStatus;
  readonly lastEventAt: Date;
  readonly currentPeriodEnd?: Date | undefined;
  /**
   * The plan this state names (a switch in the customer portal): replaces the stored plan when the
   * state is written, unlike the facts, so the newest event's plan wins and an older one never
   * switches it back.
   */
  readonly plan?: PurchasablePlan | undefined;
}

/** Subscriptions across users (system unit of work: webhook and dev checkout). */
export interface SystemSubscriptionRepository {
  /** The row, locked until the transaction ends (concurrent events for one subscription queue here). */
  lock(processorId: string): Promise<SubscriptionRecord | null>;
  /**
   * Inserts a new row. False, changing nothing, when a concurrent transaction inserted the same
   * processor id first: the caller locks that row and decides again.
   */
  insert(processorId: string, facts: SubscriptionFacts, state: SubscriptionState): Promise<boolean>;
  /** Fills in missing facts and, when given, replaces the state. Call only on a row this transaction locked. */
  update(processorId: string, facts: SubscriptionFacts, state: SubscriptionState | null): Promise<void>;
}
