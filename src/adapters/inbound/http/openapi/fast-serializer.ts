import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

/**
 * Responses are written by fast-json-stringify from the route's zod response schema turned into
 * JSON Schema once, at startup: fastify's own fast path, instead of a zod parse plus
 * JSON.stringify on every response. Fields the schema does not name are left out.
 */
/** An empty registry: schemas with an `id` (components in the document) are inlined here, not `$ref`ed. */
const INLINE = z.registry<{ id?: string }>();

export const fastSerializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'any', metadata: INLINE }) as Record<string, unknown>;
  return fastJson(json as never);
};
