import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ReadAgentMemory } from '../../../../application/memory/read-agent-memory.use-case.js';
import type { SaveAgentMemory } from '../../../../application/memory/save-agent-memory.use-case.js';
import { memoryBody, savedMemoryBody } from '../presenters/memory-presenters.js';
import { memoryQuery, saveMemoryBody } from '../schemas/memory.schema.js';
import type { RouteEdge } from './route-context.js';
import { memoryResponse, savedMemoryResponse } from '../schemas/agents.responses.js';

/**
 * CONTRACT.md section 8: a bulk write may carry 50 values of 100 KB, so this route alone takes
 * bodies up to 6 MB; every other route keeps the server's 1 MB.
 */
export const MEMORY_BODY_LIMIT_BYTES = 6 * 1024 * 1024;

export interface MemoryRouteDeps {
  readAgentMemory: ReadAgentMemory;
  saveAgentMemory: SaveAgentMemory;
}

/** /api/memory (spec "Memory", S, owner of the agent). */
export const memoryRoutes: FastifyPluginAsyncZod<RouteEdge & MemoryRouteDeps> = async (app, { readAgentMemory, saveAgentMemory }) => {
  const config = { auth: 'required' as const };

  app.get('/api/memory', { schema: { querystring: memoryQuery, response: { 200: memoryResponse } }, config }, async (req) => {
    const { agentId } = req.query;
    return memoryBody(agentId, await readAgentMemory.execute(req.actor!, agentId));
  });

  app.post('/api/memory', { bodyLimit: MEMORY_BODY_LIMIT_BYTES, schema: { body: saveMemoryBody, response: { 200: savedMemoryResponse } }, config }, async (req) => {
    const { agentId, key, memory } = req.body;
    const saved = await saveAgentMemory.execute(req.actor!, { agentId, key, memory });
    return savedMemoryBody(agentId, key !== undefined, saved);
  });
};
