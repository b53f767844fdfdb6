import { z } from 'zod';
import { MCP_HEADER_NAME, MCP_SERVER_NAME, MCP_SERVER_NAME_MAX, MCP_SERVERS_PER_AGENT_MAX, MCP_TOOL_NAME_MAX } from '../../../../domain/mcp/mcp-server.js';

const MAX_HEADERS = 20;

/** POST /api/agents/:id/mcp-servers (CONTRACT.md "agents' MCP servers"); the URL's outbound rule and the reserved header names are the use case's. */
export const addMcpServerBody = z
  .object({
    name: z.string().max(MCP_SERVER_NAME_MAX).regex(MCP_SERVER_NAME, 'lower-case letters, digits, "-" and single "_"').describe('unique per agent; names its tools `mcp__<name>__<tool>`'),
    url: z.string().trim().min(1).max(2048).url('must be a URL').describe('the server\'s streamable HTTP endpoint (http or https)'),
    headers: z
      .record(z.string().regex(MCP_HEADER_NAME, 'must be an HTTP header name'), z.string().max(8192).regex(/^[^\r\n]*$/, 'may not hold a line break'))
      .refine((h) => Object.keys(h).length <= MAX_HEADERS, `at most ${MAX_HEADERS} headers`)
      .optional()
      .describe('sent with every request to the server; stored encrypted, never returned'),
    tools: z.array(z.string().min(1).max(MCP_TOOL_NAME_MAX)).max(200).optional().describe('the tool names the agent may call; absent: every tool the server lists'),
  })
  .strict();

export const mcpServerParams = z.object({ id: z.string().min(1).max(200), serverId: z.string().uuid('not an MCP server id') });

export const mcpServerItem = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    tools: z.array(z.string()).describe('the tools the agent may call: those the last listing named that the allowlist permits'),
    allowedTools: z.array(z.string()).nullable().describe('the allowlist as given; null: every tool the server lists'),
    listedTools: z.array(z.object({ name: z.string(), description: z.string() })).describe('what the server listed at its last check'),
    headers: z.array(z.string()).describe('the names of the headers it is called with (their values are never returned)'),
    status: z.enum(['ok', 'error']),
    error: z.string().nullable().describe('why the last check failed'),
    checkedAt: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'McpServer' });
export const mcpServersResponse = z.object({ servers: z.array(mcpServerItem).max(MCP_SERVERS_PER_AGENT_MAX) });
export const mcpServerResponse = z.object({ server: mcpServerItem });
