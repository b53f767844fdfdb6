/**
 * Subscription statuses as the payment processor reports them, what each one grants, and how
 * out-of-order processor events converge on one stored state.
 */

export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
  'canceled',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const isSubscriptionStatus = (v: unknown): v is SubscriptionStatus =>
  typeof v === 'string' && (SUBSCRIPTION_STATUSES as readonly string[]).includes(v);

/** Subscribed means `active` or `trialing`, everywhere (CONTRACT.md section 5). */
export const isSubscribed = (status: SubscriptionStatus): boolean => status === 'active' || status === 'trialing';

/** Statuses the processor never leaves: a canceled or expired subscription is never revived. */
export const isTerminalStatus = (status: SubscriptionStatus): boolean =>
  status === 'canceled' || status === 'incomplete_expired';

/** What a subscription in a given status allows its owner. */
export interface StatusGrants {
  /** Provision new agents (else 402). */
  readonly provision: boolean;
  /** Chat and metered calls on the plan's level and daily units (else 402). */
  readonly paidUsage: boolean;
  /**
   * Agents already running keep running. True in every status: a failed payment or even a
   * cancellation does not tear down what the user already has; it only stops new provisioning.
   */
  readonly keepRunningAgents: true;
}

export function grantsOf(status: SubscriptionStatus): StatusGrants {
  const subscribed = isSubscribed(status);
  return { provision: subscribed, paidUsage: subscribed, keepRunningAgents: true };
}

/** The state stored for one processor subscription. */
export interface StoredSubscriptionState {
  readonly status: SubscriptionStatus;
  /** Creation time of the processor event that produced this state. */
  readonly lastEventAt: Date;
}
/** A status carried by an incoming processor event. */
export interface IncomingSubscriptionState {
  readonly status: SubscriptionStatus;
  readonly eventAt: Date;
}

export type ConvergenceDecision =
  | { readonly apply: true; readonly reason: 'first' | 'newer' | 'tie-not-behind' }
  | { readonly apply: false; readonly reason: 'older' | 'terminal' | 'tie-behind' };

/**
 * How far along the lifecycle a status is; used only to break ties between events of the same
 * second (the processor's timestamps have one-second resolution, and `created` then `updated`
 * routinely share one). `paused` and `unpaid` sit side by side; the two terminals share the top.
 */
const LIFECYCLE_RANK: Readonly<Record<SubscriptionStatus, number>> = {
  incomplete: 0,
  trialing: 1,
  active: 2,
  past_due: 3,
  unpaid: 4,
  paused: 4,
  incomplete_expired: 5,
  canceled: 5,
};

/**
 * Whether an incoming event's state replaces the stored one. Pure; the caller applies it in the
 * same conditional write that reads `stored`, so two racing deliveries converge too.
 *
 * - Nothing stored: apply.
 * - A terminal stored status (`canceled`, `incomplete_expired`) is final: only another terminal
 *   status that is not older may replace it.
 * - Older than the stored event: never applied.
 * - Newer: applied.
 * - Same timestamp: applied when the incoming status is not behind the stored one in the
 *   lifecycle (`incomplete` < `trialing` < `active` < `past_due` < `unpaid` = `paused` <
 *   `canceled` = `incomplete_expired`). So a same-second `canceled` always wins, `active` beats
 *   the `incomplete` it was created as, and a repeat of the same status re-applies (harmless,
 *   and it refreshes fields such as the period end).
 */
export function decideConvergence(
  stored: StoredSubscriptionState | undefined,
  incoming: IncomingSubscriptionState,
): ConvergenceDecision {
  if (!stored) return { apply: true, reason: 'first' };
  const diff = incoming.eventAt.getTime() - stored.lastEventAt.getTime();
  if (diff < 0) return { apply: false, reason: 'older' };
  if (isTerminalStatus(stored.status) && !isTerminalStatus(incoming.status)) return { apply: false, reason: 'terminal' };
  if (diff > 0) return { apply: true, reason: 'newer' };
  return LIFECYCLE_RANK[incoming.status] >= LIFECYCLE_RANK[stored.status]
    ? { apply: true, reason: 'tie-not-behind' }
    : { apply: false, reason: 'tie-behind' };
}
