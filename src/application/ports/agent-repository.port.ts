import type { Agent, AgentConfigObject, ProvisionTier } from '../../domain/agents/agent.js';
import type { AgentEvent, AgentEventKind } from '../../domain/agents/agent-event.js';
import type { AgentStatus } from '../../domain/agents/agent-status.js';
import type { UserId } from '../../domain/shared/ids.js';

export interface NewAgent {
  name: string;
  model: string;
  tier: ProvisionTier | null;
  config: AgentConfigObject;
}

/** The acting user's agents (user unit of work; RLS scopes every statement to them). */
export interface AgentRepository {
  /**
   * Serialises provisioning per user: held until the unit of work ends, so two concurrent
   * provisionings of one user count and insert one after the other (the agent limit is race-free).
   */
  lockForProvisioning(): Promise<void>;
  /** How many agents the user has, whatever their status. */
  count(): Promise<number>;
  insert(agent: NewAgent): Promise<Agent>;
  /** Oldest first. */
  list(): Promise<Agent[]>;
  /** Null when absent or another user's (same answer). `id` must be a uuid. */
  get(id: string): Promise<Agent | null>;
  /** Replaces the config; false when the agent is absent or another user's. */
  replaceConfig(id: string, config: AgentConfigObject): Promise<boolean>;
  /**
   * Deletes the agent and, through the foreign keys, everything that is its (messages, sessions,
   * memory, skills, credentials, verification, events); false when absent or another user's.
   */
  remove(id: string): Promise<boolean>;
}

/** Agents across users (system unit of work: the provision job, later the runtime's events). */
export interface SystemAgentRepository {
  get(id: string): Promise<Agent | null>;
  /** The agent locked until the unit of work ends: status moves of one agent queue here. */
  lock(id: string): Promise<Agent | null>;
  setStatus(id: string, status: AgentStatus): Promise<void>;
  /** The user's agents, oldest first, locked until the unit of work ends (an instance move moves them all). */
  lockAllOf(userId: UserId): Promise<Agent[]>;
}

/** Message figures of one agent, from its `message_answered` and `message_failed` events. */
export interface AgentMessageFigures {
  answered: number;
  failed: number;
  /** Mean duration of the answered messages, ms; null when none was answered. */
  averageAnswerMs: number | null;
  /** Answered and failed since `since`. */
  sinceCount: number;
}

/** The acting user's agent events, read only (user unit of work). */
export interface AgentEventReader {
  messageFigures(agentId: string, since: Date): Promise<AgentMessageFigures>;
  /** The agent's events at or after `since` other than answered messages (those are counted, not listed), newest first, at most `limit`. */
  timeline(agentId: string, since: Date, limit: number): Promise<AgentEvent[]>;
  /** Answered and failed messages per hour from `from` for `hours` hours, one entry per hour (zeros included), oldest first. */
  messagesPerHour(agentId: string, from: Date, hours: number): Promise<HourlyMessages[]>;
}

export interface HourlyMessages {
  hour: Date;
  answered: number;
  failed: number;
}

/** Appends what happened to an agent; rows are never changed or deleted. */
export interface AgentEventLog {
  append(event: { agentId: string; userId: UserId; kind: AgentEventKind; durationMs: number | null; reason: string | null; at: Date }): Promise<void>;
}
