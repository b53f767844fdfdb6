import type { FastifyInstance } from 'fastify';
import { HttpEdgeError } from '../http-error.js';

/** CONTRACT.md section 8: JSON nested deeper than this is refused. Every value the service keeps fits well within it. */
export const JSON_MAX_DEPTH = 64;

/**
 * Whether `text` opens more than `max` objects or arrays inside one another, read as JSON text
 * (brackets inside strings do not count). One pass, no recursion: a body nested 20,000 deep is
 * answered before the parser, a validator or PostgreSQL walks it recursively.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The refusal of a body nested deeper than JSON_MAX_DEPTH (also given by the agent host's door: host-calls/host-call-body.ts). */
export function tooDeepError(): HttpEdgeError {
  const message = `must not nest objects and arrays more than ${JSON_MAX_DEPTH} levels deep`;
  return new HttpEdgeError('VALIDATION_ERROR', `Invalid request: body ${message}`, { details: [{ path: 'body', message }] });
}

/**
 * Replaces Fastify's JSON body parser with the same parser (prototype-poisoning checks included)
 * behind the depth bound: 400 VALIDATION_ERROR on every route that reads JSON. Call before any
 * route is registered: route plugins inherit the parsers their parent had.
 */
export function boundJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, JSON_MAX_DEPTH)) {
      done(tooDeepError(), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
