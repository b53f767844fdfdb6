import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AddMcpServer } from '../../../../application/mcp/add-mcp-server.use-case.js';
import type { ListMcpServers } from '../../../../application/mcp/list-mcp-servers.use-case.js';
import type { RefreshMcpServer } from '../../../../application/mcp/refresh-mcp-server.use-case.js';
import type { RemoveMcpServer } from '../../../../application/mcp/remove-mcp-server.use-case.js';
import { mcpServerBody } from '../presenters/mcp-server-presenters.js';
import { agentParams } from '../schemas/agents.schema.js';
import { addMcpServerBody, mcpServerParams, mcpServerResponse, mcpServersResponse } from '../schemas/mcp-servers.schema.js';
import { successResponse } from '../schemas/platform.responses.js';
import type { RouteEdge } from './route-context.js';

export interface McpServerRouteDeps {
  addMcpServer: AddMcpServer;
  listMcpServers: ListMcpServers;
  removeMcpServer: RemoveMcpServer;
  refreshMcpServer: RefreshMcpServer;
}

/** An agent's MCP servers (CONTRACT.md "agents' MCP servers", decision 0440); another user's agent: 404. */
export const mcpServerRoutes: FastifyPluginAsyncZod<RouteEdge & McpServerRouteDeps> = async (app, { addMcpServer, listMcpServers, removeMcpServer, refreshMcpServer }) => {
  const config = { auth: 'required' as const };

  app.post('/api/agents/:id/mcp-servers', { schema: { operationId: 'addMcpServer', summary: 'Add an MCP server to an agent', params: agentParams, body: addMcpServerBody, response: { 201: mcpServerResponse } }, config }, async (req, reply) => {
    const server = await addMcpServer.execute(req.actor!, req.params.id, req.body);
    return reply.status(201).send({ server: mcpServerBody(server) });
  });

  app.get('/api/agents/:id/mcp-servers', { schema: { operationId: 'listMcpServers', summary: "An agent's MCP servers", params: agentParams, response: { 200: mcpServersResponse } }, config }, async (req) => ({
    servers: (await listMcpServers.execute(req.actor!, req.params.id)).map(mcpServerBody),
  }));

  app.post('/api/agents/:id/mcp-servers/:serverId/refresh', { schema: { operationId: 'refreshMcpServer', summary: "List an MCP server's tools again", params: mcpServerParams, response: { 200: mcpServerResponse } }, config }, async (req) => ({
    server: mcpServerBody(await refreshMcpServer.execute(req.actor!, req.params.id, req.params.serverId)),
  }));

  app.delete('/api/agents/:id/mcp-servers/:serverId', { schema: { operationId: 'removeMcpServer', summary: 'Remove an MCP server from an agent', params: mcpServerParams, response: { 200: successResponse } }, config }, async (req) => {
    await removeMcpServer.execute(req.actor!, req.params.id, req.params.serverId);
    return { success: true };
  });
};
