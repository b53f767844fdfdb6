import type { InjectionToken } from 'tsyringe';
import type { ToolDefinition } from './ai-provider.port.js';
import type { McpServerTools } from './mcp-server-repository.port.js';
import type { InstalledSkillRecord } from './skill-install-repository.port.js';

/** An agent's tools for one answer: its installed and enabled skills' actions, and its MCP servers' tools. */
export interface AgentToolSource {
  /** The tools for these installs (read by the caller in its own transaction). */
  toolsFor(installs: readonly InstalledSkillRecord[]): ToolDefinition[];
  /** The tools of the agent's MCP servers (read with the claim): offered beside its skills'. */
  mcpToolsFor(servers: readonly McpServerTools[]): ToolDefinition[];
}

/**
 * Resolved per call in bootstrap: the mailbox worker is built early, and the skills' handlers
 * may be registered after it (another area's registration, a test's), so they are looked up late.
 */
export const AGENT_TOOL_SOURCE: InjectionToken<AgentToolSource> = Symbol('AgentToolSource');
