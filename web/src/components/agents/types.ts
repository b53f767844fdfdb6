/** The API's shapes the agents pages read (spec "Agent", "Agent detail", CONTRACT.md section 7). */
export interface AgentItem {
  id: string;
  name: string;
  model: string;
  status: string;
  websocketUrl: string;
  createdAt: string;
  updatedAt: string;
}

export interface AgentDetail {
  id: string;
  status: string;
  startedAt: string | null;
  plan: string | null;
  subdomain: string | null;
  url: string | null;
  runtimeVersion: string | null;
  verified: boolean;
  verificationType: string | null;
  attestationUid: string | null;
  verifiedAt: string | null;
}

export interface AgentMessage {
  id: string;
  agentId: string;
  role: string;
  content: string;
  channel: string;
  createdAt: string;
  /** A reply's model, as the runtime reported it (after a provider's fallback, not the agent's). */
  model?: string;
  /** A user message whose answer failed (history reads only): the code the chat call answered. */
  failure?: { code: string };
}
