import type { VerificationRecord } from '../../domain/verification/verification.js';

/** The acting user's agents' current verification records (user unit of work; RLS scopes them). */
export interface AgentVerificationRepository {
  /** The agent's current record; null when it has none (unverified), or is not the user's. */
  get(agentId: string): Promise<VerificationRecord | null>;
  /**
   * Makes `record` the agent's one current record, replacing any (an upsert: two concurrent
   * POSTs leave one record, the later commit's). False when the agent is absent or another user's.
   */
  save(agentId: string, record: VerificationRecord): Promise<boolean>;
  /** Removes the agent's record; nothing happens when it has none. */
  clear(agentId: string): Promise<void>;
}
