import type { SealedSecret } from './secret-box.port.js';

/** What may be shown of an agent's credential: never its value. */
export interface AgentCredentialName {
  agentId: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Credentials a user sets for their agents, stored sealed (user unit of work; RLS scopes them).
 * The sealed value can be written but not read back through this port: app_user cannot select it.
 */
export interface AgentCredentialRepository {
  /**
   * Stores or replaces the agent's credential `name`. Concurrent sets of one name end with one of
   * the values (the last writer's); never two rows.
   */
  set(input: { agentId: string; userId: string; name: string; sealed: SealedSecret }): Promise<AgentCredentialName>;
  /** The names of the user's credentials, of one agent when `agentId` is given, by agent then name. */
  names(agentId: string | null): Promise<AgentCredentialName[]>;
}

/** The authenticated data of a credential's ciphertext: it opens only for this user, agent and name. */
export const agentCredentialContext = (userId: string, agentId: string, name: string): string =>
  `agent-credential:${userId}:${agentId}:${name.length}:${name}`;
