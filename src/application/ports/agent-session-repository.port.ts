import type { AgentMessage } from './agent-message-repository.port.js';

/** A conversation thread of one agent (CONTRACT.md section 7 "/api/agent actions"). */
export interface AgentSession {
  id: string;
  agentId: string;
  createdAt: Date;
  /** How many messages carry this session's id. */
  messageCount: number;
  /** The newest message's time, or null before the first message. */
  lastMessageAt: Date | null;
}

/**
 * The acting user's agents' sessions (user unit of work; RLS scopes every statement to them, so
 * another user's session reads as absent). Sessions are only created, never changed: concurrent
 * creations simply make two sessions.
 */
export interface AgentSessionRepository {
  /** A new session of one of the user's agents (the caller checked the agent is theirs). */
  create(agentId: string, userId: string): Promise<AgentSession>;
  /** The user's sessions, newest first, of one agent when `agentId` is given; at most `limit`. */
  list(agentId: string | null, limit: number): Promise<AgentSession[]>;
  /** One of the user's sessions, or null (a malformed id included). */
  get(sessionId: string): Promise<AgentSession | null>;
  /** The agent's most recently created session, or null. */
  latest(agentId: string): Promise<AgentSession | null>;
  /** The session's messages in conversation order (oldest first): the last `limit` of them. */
  messages(sessionId: string, limit: number): Promise<AgentMessage[]>;
}
