import type { InjectionToken } from 'tsyringe';

/** The operator's settings for agents' MCP servers (MCP_* in configuration). */
export interface McpSettings {
  /** Loopback and private addresses may be targets (MCP_ALLOW_PRIVATE_TARGETS). */
  readonly allowPrivate: boolean;
  /** At most this many characters of a tool's result go back to the model (MCP_RESULT_MAX_CHARS). */
  readonly resultMaxChars: number;
}
export const MCP_SETTINGS: InjectionToken<McpSettings> = Symbol('McpSettings');
