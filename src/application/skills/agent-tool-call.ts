/** One tool call of an agent's model, as the agent host sends it (`POST /api/runtime/tools`). */
export interface AgentToolCall {
  agentId: string;
  /** `<slug>__<action>` for a skill, `mcp__<server>__<tool>` for an MCP server's tool, as offered to the model. */
  name: string;
  /** The model's arguments: JSON text. */
  arguments: string;
}

/**
 * What the model reads as the tool's result: the handler's body with `success: true`, or a
 * refusal `{error, code}`. A refusal is an answer, never an HTTP failure: the model decides what
 * to tell the user, and nothing is claimed to have happened.
 */
export type AgentToolResult = { success: true; [key: string]: unknown } | { error: string; code: string };
