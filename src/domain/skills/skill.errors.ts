import { DomainError } from '../shared/domain-error.js';

/** The plan's per-agent skill limit is reached (CONTRACT.md section 7: 429 with `current` and `limit`). */
export class SkillLimitReachedError extends DomainError {
  constructor(current: number, limit: number) {
    super('SKILL_LIMIT_REACHED', `Skill limit reached for this agent (${current} of ${limit})`, { current, limit });
  }
}

/** Installing needs a subscribed plan unless the caller is an admin (as provisioning: 402). */
export class SubscriptionRequiredForSkillsError extends DomainError {
  constructor() {
    super('SUBSCRIPTION_REQUIRED', 'An active subscription is required to install skills');
  }
}
