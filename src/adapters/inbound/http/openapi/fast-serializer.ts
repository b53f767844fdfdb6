import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

/**
 * Responses are written by fast-json-stringify from the route's zod response schema turned into
 * JSON Schema: fastify's own fast path, instead of a zod parse plus JSON.stringify on every
 * response. Fields the schema does not name are left out.
 *
 * Each serializer is compiled when its route first answers with that status, not at start-up:
 * compiling every route's every status took about a tenth of a warm start's CPU, most of it for
 * answers a given process never sends. The first answer of each pays a few milliseconds once.
 */
/** An empty registry: schemas with an `id` (components in the document) are inlined here, not `$ref`ed. */
const INLINE = z.registry<{ id?: string }>();

export const compileSerializer = (schema: z.ZodType): ((data: unknown) => string) => {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'any', metadata: INLINE }) as Record<string, unknown>;
  return fastJson(json as never);
};

export const fastSerializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= compileSerializer(schema))(data);
};
