import type { McpToolInfo } from '../../domain/mcp/mcp-server.js';
import type { SealedSecret } from './secret-box.port.js';

/** What an answer offers of one of its agent's MCP servers: its name, its last listing, its allowlist. */
export type McpServerTools = Pick<McpServerRecord, 'name' | 'tools' | 'allowedTools'>;

/** An agent's MCP server as stored (decision 0440). */
export interface McpServerRecord {
  id: string;
  agentId: string;
  userId: string;
  name: string;
  url: string;
  /** The names of the headers it is called with; their values are in `headers`, sealed. */
  headerNames: string[];
  /** The headers as one JSON object, sealed (context: mcpHeadersContext); null when there are none. */
  headers: SealedSecret | null;
  /** The tools the agent may call; null: every tool the server lists. */
  allowedTools: string[] | null;
  /** What the server listed at its last check. */
  tools: McpToolInfo[];
  status: 'ok' | 'error';
  statusError: string | null;
  checkedAt: Date;
  createdAt: Date;
}

/** The outcome of listing a server's tools, as stored. */
export interface McpServerCheck {
  tools: McpToolInfo[];
  status: 'ok' | 'error';
  statusError: string | null;
  checkedAt: Date;
}

/** The acting user's agents' MCP servers (row-level security: their own only). */
export interface McpServerRepository {
  /** Serialises adding servers to one agent until the transaction ends (the count and the insert). */
  lockAgent(agentId: string): Promise<void>;
  countForAgent(agentId: string): Promise<number>;
  /** In the order they were added. */
  listForAgent(agentId: string): Promise<McpServerRecord[]>;
  get(agentId: string, serverId: string): Promise<McpServerRecord | null>;
  /** Null, and nothing stored, when the agent already has a server of that name. */
  insert(record: Omit<McpServerRecord, 'createdAt'>): Promise<McpServerRecord | null>;
  /** Stores a new check's outcome; null when the server is gone meanwhile. */
  recordCheck(agentId: string, serverId: string, check: McpServerCheck): Promise<McpServerRecord | null>;
  /** False when there was no such server of that agent. */
  remove(agentId: string, serverId: string): Promise<boolean>;
}

/** Read by the service for the agent's answers: its tool offers, and each tool call. */
export interface SystemMcpServers {
  /** An agent's servers, in the order they were added. */
  listForAgent(agentId: string): Promise<McpServerRecord[]>;
}

/** The secret box's context for a server's headers: a sealed value copied to another row does not open. */
export const mcpHeadersContext = (serverId: string, agentId: string): string => `mcp-server-headers:${serverId}:${agentId}`;
