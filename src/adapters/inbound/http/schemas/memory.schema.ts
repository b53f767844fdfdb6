import { z } from 'zod';

/** Any text: an id that is not a uuid names no agent, so it answers 404 like another user's. */
const agentId = z.string().min(1).max(200);

export const memoryQuery = z.object({ agentId });

/**
 * Single `{agentId, key, memory}` or bulk `{agentId, memory: {...}}`: which one is decided by `key`.
 * The limits (value bytes, keys per request, key rules) are the domain's, checked by the use case.
 * `memory` null reads as missing (spec: memory required).
 */
export const saveMemoryBody = z
  .object({
    agentId,
    key: z.string().max(10_000).optional(),
    memory: z
      .unknown()
      .meta({ type: ['object', 'array', 'string', 'number', 'boolean'], description: 'Any JSON value but null: the value of `key`, or with no `key` an object of key to value' } as never),
  })
  .refine((b) => b.memory !== undefined && b.memory !== null, { message: 'memory is required', path: ['memory'] });
