import type { AgentEventLog, AgentRepository, SystemAgentRepository } from '../agent-repository.port.js';
import type { McpServerRepository, SystemMcpServers } from '../mcp-server-repository.port.js';
import type { SystemInstanceRepository } from '../instance-repository.port.js';
import type { SubscriptionRepository } from '../subscription-repository.port.js';
import type { SharedSystemScope, SharedUserScope } from './shared-scope.port.js';

/** What the agents' MCP-server use cases may touch as one user: the servers, and (of other areas) the agent and the plan. */
export interface McpUserScope extends SharedUserScope {
  mcpServers: McpServerRepository;
  agents: AgentRepository;
  subscriptions: SubscriptionRepository;
}

/** What they may touch as the system: an answer's tool offers and each tool call, and (of other areas) the agent, its instance, its events. */
export interface McpSystemScope extends SharedSystemScope {
  agentMcpServers: SystemMcpServers;
  agents: SystemAgentRepository;
  instances: SystemInstanceRepository;
  agentEvents: AgentEventLog;
}
