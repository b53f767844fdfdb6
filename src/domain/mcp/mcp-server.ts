import type { InstanceAllowance } from '../agents/agent-limits.js';

/**
 * An agent's MCP servers (decision 0440): their names, the names their tools are offered to the
 * model under, the allowlist, and the plan's bound. Plain rules, no I/O.
 */

/** A server's name: lower-case letters, digits, `-` and single `_`, at most 32; never `__`, so an offered name splits back. */
export const MCP_SERVER_NAME = /^[a-z0-9](?:[a-z0-9-]|_(?!_))*$/;
export const MCP_SERVER_NAME_MAX = 32;
export const isMcpServerName = (name: string): boolean => name.length <= MCP_SERVER_NAME_MAX && MCP_SERVER_NAME.test(name) && !name.endsWith('_');

/** An MCP tool's own name as the protocol allows it (its spec: 1 to 128 characters). */
export const MCP_TOOL_NAME_MAX = 128;

/** Header names a server's configuration may carry: an HTTP token; the transport's own are refused. */
export const MCP_HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'accept', 'connection', 'transfer-encoding', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']);
export const isAllowedMcpHeader = (name: string): boolean => MCP_HEADER_NAME.test(name) && !RESERVED_HEADERS.has(name.toLowerCase());

/** At most this many servers per agent, whatever the plan (each adds its tools to every answer's prompt). */
export const MCP_SERVERS_PER_AGENT_MAX = 10;

/** How many MCP servers one agent may have: the plan's skills per agent, capped at MCP_SERVERS_PER_AGENT_MAX. */
export const mcpServerLimit = (allowance: InstanceAllowance): number => Math.min(MCP_SERVERS_PER_AGENT_MAX, allowance.skills);

/** What a server listed about one of its tools. */
export interface McpToolInfo {
  name: string;
  description: string;
  /** The tool's input JSON schema as the server gave it (an object schema). */
  inputSchema: Record<string, unknown>;
}

const PREFIX = 'mcp__';
const SEPARATOR = '__';
/** OpenAI's rule for a function name, the strictest of the providers. */
const OFFERED_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The name a tool is offered to the model under: `mcp__<server>__<tool>`, the tool's own name
 * with every character a provider refuses (anything but letters, digits, `_` and `-`) written
 * as `_`. Null when the result is longer than 64 characters: such a tool is not offered.
 */
export function offeredToolName(server: string, tool: string): string | null {
  const name = `${PREFIX}${server}${SEPARATOR}${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  return OFFERED_NAME.test(name) ? name : null;
}

/** Whether a tool name the model called is an MCP tool's (it starts with `mcp__`); skills never are. */
export const isOfferedMcpName = (name: string): boolean => name.startsWith(PREFIX);

/** The server's name in an offered name: what lies between `mcp__` and the next `__`; null when absent. */
export function serverOfOfferedName(name: string): string | null {
  if (!isOfferedMcpName(name)) return null;
  const rest = name.slice(PREFIX.length);
  const at = rest.indexOf(SEPARATOR);
  return at > 0 ? rest.slice(0, at) : null;
}

/** The tools of a server the agent may call: those it listed, in its order, that the allowlist names (null: all). */
export function permittedTools(listed: readonly McpToolInfo[], allowlist: readonly string[] | null): McpToolInfo[] {
  if (allowlist === null) return [...listed];
  const allowed = new Set(allowlist);
  return listed.filter((t) => allowed.has(t.name));
}

/**
 * The tools offered to the model for one server, each under its offered name. Two tools whose
 * names write the same offered name: only the first is offered (the name must lead back to one).
 */
export function offeredTools(server: string, listed: readonly McpToolInfo[], allowlist: readonly string[] | null): { offered: string; tool: McpToolInfo }[] {
  const seen = new Set<string>();
  const out: { offered: string; tool: McpToolInfo }[] = [];
  for (const tool of permittedTools(listed, allowlist)) {
    const offered = offeredToolName(server, tool.name);
    if (!offered || seen.has(offered)) continue;
    seen.add(offered);
    out.push({ offered, tool });
  }
  return out;
}

/** The tool an offered name leads to among a server's permitted tools; undefined when none does. */
export const toolOfOfferedName = (server: string, offered: string, listed: readonly McpToolInfo[], allowlist: readonly string[] | null): McpToolInfo | undefined =>
  offeredTools(server, listed, allowlist).find((t) => t.offered === offered)?.tool;
