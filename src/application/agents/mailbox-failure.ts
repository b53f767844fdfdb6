/** Failure codes the mailbox records itself (the others come from the runtime or the service). */
export const MAILBOX_FAILURE = {
  /** The agent was stopped (or failed) while its message waited. */
  notRunning: 'AGENT_NOT_RUNNING',
  /** The runtime could not be reached or died while answering. */
  runtimeUnavailable: 'UPSTREAM_UNAVAILABLE',
  /** The answer was interrupted (its worker died) `maxAttempts` times. */
  interrupted: 'ANSWER_INTERRUPTED',
} as const;
