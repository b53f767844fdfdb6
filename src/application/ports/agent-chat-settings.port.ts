import type { InjectionToken } from 'tsyringe';

/** The slice of configuration talking to an agent reads (POST /api/chat and the mailbox worker). */
export interface AgentChatSettings {
  /** `AGENT_REPLY_TIMEOUT_MS`: how long POST /api/chat waits for the answer before 202. */
  readonly replyTimeoutMs: number;
  /** `RATE_LIMIT_CHAT`: requests per caller per minute on /api/chat (spec Limits: 60). */
  readonly rateLimitPerMinute: number;
  /** `AGENT_MAILBOX_POLL_MS`: the slow look at the database behind NOTIFY (workers and waiting requests). */
  readonly pollMs: number;
  /** `AGENT_MAILBOX_STALE_MS`: a message `working` longer than this, with no answer in progress here, is recovered. */
  readonly staleMs: number;
  /** How many earlier messages a delivery carries as history. */
  readonly historyMessages: number;
  /** How many times a message is claimed before an interrupted answer counts as failed. */
  readonly maxAttempts: number;
  /** `AGENT_MAX_TOOL_STEPS`: model calls per answer while tools are offered (the last one offers none). */
  readonly maxToolSteps: number;
}

export const AGENT_CHAT_SETTINGS: InjectionToken<AgentChatSettings> = Symbol('AgentChatSettings');
