import { DomainError } from '../shared/domain-error.js';
import type { AgentMove, AgentStatus } from './agent-status.js';

/** A move the state machine does not allow from the agent's current state. */
export class AgentInvalidTransitionError extends DomainError {
  constructor(from: AgentStatus, move: AgentMove) {
    super('AGENT_INVALID_TRANSITION', `An agent that is ${from} cannot take "${move}"`, { from, move });
  }
}

/** The plan's agent limit is reached (spec: 429 with `current` and `limit`). */
export class AgentLimitReachedError extends DomainError {
  constructor(current: number, limit: number) {
    super('AGENT_LIMIT_REACHED', `Agent limit reached (${current} of ${limit})`, { current, limit });
  }
}

/** Provisioning needs a subscribed plan unless the caller is an admin (spec: 402). */
export class SubscriptionRequiredForAgentsError extends DomainError {
  constructor() {
    super('SUBSCRIPTION_REQUIRED', 'An active subscription is required to provision agents');
  }
}

/** A model outside the provisioning list (CONTRACT.md section 7 "provision models"). */
export class ModelNotProvisionableError extends DomainError {
  constructor(model: string, allowed: readonly string[]) {
    super('UNKNOWN_MODEL', `Model ${model} cannot be provisioned: use one of ${allowed.join(', ')}`, { allowed: [...allowed] });
  }
}

/** Another user's instance (spec: `/api/instance/:userId` answers 403 to anyone but its owner or an admin). */
export class InstanceForbiddenError extends DomainError {
  constructor() {
    super('INSTANCE_FORBIDDEN', 'You do not own this instance');
  }
}

/** A message to an agent that is not `running` (CONTRACT.md section 7: 409, nothing stored). */
export class AgentNotRunningError extends DomainError {
  constructor(status: AgentStatus) {
    super('AGENT_NOT_RUNNING', `The agent is ${status}, not running: start it first`);
  }
}
