/** One stored message of an agent (CONTRACT.md section 7 "agent message"). */
export interface AgentMessage {
  id: string;
  agentId: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  channel: string;
  sessionId: string | null;
  createdAt: Date;
  /** A reply's model, as the runtime reported it (it may differ from the agent's after a fallback). */
  model?: string;
}

/** The acting user's agents' messages (user unit of work; RLS scopes them). */
export interface AgentMessageRepository {
  /**
   * A page of one agent's messages, newest first, and how many it has in all. A user message whose
   * answer failed carries the mailbox's stored error code (`failedWith`), so a conversation read
   * back later still says it got no answer.
   */
  page(agentId: string, limit: number, offset: number): Promise<{ messages: (AgentMessage & { failedWith?: string })[]; total: number }>;
  /** Stores a message of one of the user's agents (the caller checked the agent is theirs). */
  append(message: NewAgentMessage): Promise<AgentMessage>;
  /** One of the user's messages, or null. */
  get(id: string): Promise<AgentMessage | null>;
}

export interface NewAgentMessage {
  agentId: string;
  userId: string;
  role: AgentMessage['role'];
  content: string;
  channel: string;
  /** The session (a thread of the same agent) the message belongs to; none when omitted. */
  sessionId?: string | null;
}

/** Messages across users (system unit of work: the mailbox worker). */
export interface SystemAgentMessageRepository {
  append(message: NewAgentMessage): Promise<AgentMessage>;
  /**
   * The conversation so far: the agent's last `limit` user and assistant messages, oldest first,
   * leaving out user messages still in the mailbox (the one being answered, and later ones waiting).
   * Only the messages of session `sessionId` (a thread); null: the messages that carry no session.
   */
  history(agentId: string, limit: number, sessionId?: string | null): Promise<AgentMessage[]>;
}
