import { DomainError } from '../../../domain/shared/domain-error.js';

/** An error of the HTTP edge itself (CSRF, deprecated route): still a code, mapped in one place. */
export class HttpEdgeError extends DomainError {}

/**
 * An agent's answer failed; the failure is stored with its message, and the request that waited
 * for the answer is told it (presenters `agentFailureBody`), with its code's status on the `agent`
 * family. Logged as a refusal: the fault was the agent's answer, already recorded, not this request.
 */
export class AgentAnswerFailedError extends HttpEdgeError {
  constructor(told: { error: string; code: string; reason?: string }) {
    super(told.code, told.error, told.reason === undefined ? undefined : { reason: told.reason });
  }
}
