import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { findUnstorableText, type UnstorableText } from '../../../../domain/shared/storable-text.js';
import { HttpEdgeError } from '../http-error.js';

/** A path element as a JSON pointer segment, cut short: the key is the client's own text. */
const segment = (p: string | number) => String(p).slice(0, 64).replace(/~/g, '~0').replace(/\//g, '~1');
/** Echoed paths stay short however deep the text was. */
const MAX_SEGMENTS = 32;

/** Lone surrogates of a key, replaced so the answer is itself valid text. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

const WHAT = { nul: 'a NUL character (\\u0000)', 'lone surrogate': 'a lone UTF-16 surrogate' } as const;

const detail = (part: string) => (f: UnstorableText) => ({
  path: [part, ...f.path.slice(0, MAX_SEGMENTS).map((p) => wellFormed(segment(p))), ...(f.path.length > MAX_SEGMENTS ? ['…'] : [])].join('/'),
  message: `${f.in === 'key' ? 'key must not contain' : 'must not contain'} ${WHAT[f.holds]}`,
});

/** The refusal of a request holding unstorable text, else null (also checked by the agent host's door: host-calls/host-call-body.ts). */
export function unstorableTextError(request: { params?: unknown; query?: unknown; body?: unknown }): HttpEdgeError | null {
  const found = [
    ...findUnstorableText(request.params).map(detail('params')),
    ...findUnstorableText(request.query).map(detail('querystring')),
    ...findUnstorableText(request.body).map(detail('body')),
  ];
  if (found.length === 0) return null;
  return new HttpEdgeError('VALIDATION_ERROR', `Invalid request: text must not contain a NUL character (\\u0000) or a lone UTF-16 surrogate`, { details: found });
}

/**
 * CONTRACT.md section 8: text PostgreSQL cannot store (a NUL character, a lone UTF-16 surrogate)
 * anywhere in the path parameters, the query or a parsed body (a string, a key, any nested value)
 * is a 400 VALIDATION_ERROR, for every route, with a schema or without. It runs at preValidation:
 * after authentication (onRequest), so a caller without credentials learns 401 first, like any
 * other invalid input; after the body is parsed; before the route's own schema. A raw body
 * (Buffer: the payment webhook's signed bytes) is opaque here; its reader refuses such text in
 * what it keeps.
 */
export const storableTextGuard = fp(
  async (app: FastifyInstance) => {
    // the callback form: no promise on every request
    app.addHook('preValidation', (request, _reply, done) => {
      if (request.is404) return done(); // nothing is read: an unknown URL answers 404 whatever it carries
      const refusal = unstorableTextError(request);
      done(refusal ?? undefined);
    });
  },
  { name: 'storable-text-guard' },
);
