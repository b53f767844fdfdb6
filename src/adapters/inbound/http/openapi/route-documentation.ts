import type { ZodType } from 'zod';

/**
 * What the OpenAPI document says of a route beyond its validation schema. A route whose body the
 * handler checks itself, after the caller's credential (so 401 comes before 400), declares the body
 * here: it is documented as the request body but not validated before the handler. An answer that
 * is not JSON, or not only JSON, names its media types.
 */
export interface RouteDocumentation {
  /** The request body, checked by the handler. */
  body?: ZodType;
  /** Request headers the handler reads. */
  headers?: ZodType;
  /**
   * Status → media type → its JSON Schema, or `response` for the status's response schema (e.g. a
   * JSON answer that is also offered as server-sent events).
   */
  media?: Record<number, Record<string, Record<string, unknown> | 'response'>>;
  /** Status → response header name → what it carries (a string). */
  responseHeaders?: Record<number, Record<string, string>>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Read by the OpenAPI document only (openapi.ts). */
    openapi?: RouteDocumentation;
  }
}

/** The events of a streamed answer: `text/event-stream` frames. */
export const eventStream = { type: 'string', description: 'server-sent events (with `Accept: text/event-stream`): `delta` frames with text, the last one `done` (the JSON answer) or `error`' } as const;
