import { DomainError } from '../shared/domain-error.js';

/** The plan's schedules-per-agent bound is reached (429 with `current` and `limit`, as the agent limit). */
export class ScheduleLimitReachedError extends DomainError {
  constructor(current: number, limit: number) {
    super('SCHEDULE_LIMIT_REACHED', `Schedule limit reached for this agent (${current} of ${limit})`, { current, limit });
  }
}

/** Scheduling needs a subscribed plan unless the caller is an admin (402, as provisioning). */
export class SubscriptionRequiredForSchedulesError extends DomainError {
  constructor() {
    super('SUBSCRIPTION_REQUIRED', 'An active subscription is required to schedule runs');
  }
}
