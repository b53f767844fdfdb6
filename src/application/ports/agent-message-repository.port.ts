/** One stored message of an agent (CONTRACT.md section 7 "agent message"). */
export interface AgentMessage {
  id: string;
  agentId: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  channel: string;
  sessionId: string | null;
  createdAt: Date;
}

/** The acting user's agents' messages (user unit of work; RLS scopes them). */
export interface AgentMessageRepository {
  /** A page of one agent's messages, newest first, and how many it has in all. */
  page(agentId: string, limit: number, offset: number): Promise<{ messages: AgentMessage[]; total: number }>;
}
