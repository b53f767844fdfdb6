import type { McpServerRecord } from '../ports/mcp-server-repository.port.js';
import { mcpHeadersContext } from '../ports/mcp-server-repository.port.js';
import type { SealedSecret, SecretBox } from '../ports/secret-box.port.js';

/** A server's headers sealed for its row: one JSON object, the context naming the server and its agent; null when there are none. */
export function sealMcpHeaders(box: SecretBox, serverId: string, agentId: string, headers: Readonly<Record<string, string>>): SealedSecret | null {
  return Object.keys(headers).length === 0 ? null : box.seal(JSON.stringify(headers), mcpHeadersContext(serverId, agentId));
}

/** A stored server's headers in clear, for the one request that needs them. */
export function openMcpHeaders(box: SecretBox, server: Pick<McpServerRecord, 'id' | 'agentId' | 'headers'>): Record<string, string> {
  if (!server.headers) return {};
  return JSON.parse(box.open(server.headers, mcpHeadersContext(server.id, server.agentId))) as Record<string, string>;
}
