import { DomainError } from '../shared/domain-error.js';

/** The plan's bound on an agent's MCP servers is reached (429 with `current` and `limit`, as the skills' limit). */
export class McpServerLimitReachedError extends DomainError {
  constructor(current: number, limit: number) {
    super('MCP_SERVER_LIMIT_REACHED', `MCP server limit reached for this agent (${current} of ${limit})`, { current, limit });
  }
}

/** The agent already has a server of that name (409): names are unique per agent, they name its tools. */
export class McpServerNameTakenError extends DomainError {
  constructor(name: string) {
    super('MCP_SERVER_NAME_TAKEN', `This agent already has an MCP server named ${name}`);
  }
}

/** Adding a server needs a subscribed plan unless the caller is an admin (402, as skills). */
export class SubscriptionRequiredForMcpError extends DomainError {
  constructor() {
    super('SUBSCRIPTION_REQUIRED', 'An active subscription is required to add MCP servers');
  }
}

/** The server's URL is one the service does not connect to (400): not http(s), credentials in it, or a private address. */
export class McpTargetRefusedError extends DomainError {
  constructor(reason: string) {
    super('MCP_TARGET_REFUSED', `The MCP server's address is not allowed: ${reason}`);
  }
}
