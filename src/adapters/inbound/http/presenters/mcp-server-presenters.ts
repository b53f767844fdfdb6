import type { McpServerRecord } from '../../../../application/ports/mcp-server-repository.port.js';
import { permittedTools } from '../../../../domain/mcp/mcp-server.js';

/** A server as its owner sees it: header names, never their values. */
export const mcpServerBody = (s: McpServerRecord) => ({
  id: s.id,
  name: s.name,
  url: s.url,
  tools: permittedTools(s.tools, s.allowedTools).map((t) => t.name),
  allowedTools: s.allowedTools,
  listedTools: s.tools.map((t) => ({ name: t.name, description: t.description })),
  headers: s.headerNames,
  status: s.status,
  error: s.statusError,
  checkedAt: s.checkedAt.toISOString(),
  createdAt: s.createdAt.toISOString(),
});
