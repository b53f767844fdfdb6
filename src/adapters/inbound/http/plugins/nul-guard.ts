import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { findNul, type NulFound } from '../../../../domain/shared/storable-text.js';
import { HttpEdgeError } from '../http-error.js';

/** A path element as a JSON pointer segment, cut short: the key is the client's own text. */
const segment = (p: string | number) => String(p).slice(0, 64).replace(/~/g, '~0').replace(/\//g, '~1');
/** Echoed paths stay short however deep the NUL was. */
const MAX_SEGMENTS = 32;

const detail = (part: string) => (f: NulFound) => ({
  path: [part, ...f.path.slice(0, MAX_SEGMENTS).map(segment), ...(f.path.length > MAX_SEGMENTS ? ['…'] : [])].join('/'),
  message: f.in === 'key' ? 'key must not contain a NUL character (\\u0000)' : 'must not contain a NUL character (\\u0000)',
});

/**
 * CONTRACT.md section 8: a NUL character anywhere in the path parameters, the query or a parsed
 * body (a string, a key, any nested value) is a 400 VALIDATION_ERROR, for every route, with a
 * schema or without. It runs at preValidation: after authentication (onRequest), so a caller
 * without credentials learns 401 first, like any other invalid input; after the body is parsed;
 * before the route's own schema. A raw body (Buffer: the payment webhook's signed bytes) is opaque
 * here; its reader refuses NUL in what it keeps.
 */
export const nulGuard = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      if (request.is404) return; // nothing is read: an unknown URL answers 404 whatever it carries
      const details = [
        ...findNul(request.params).map(detail('params')),
        ...findNul(request.query).map(detail('querystring')),
        ...findNul(request.body).map(detail('body')),
      ];
      if (details.length > 0) throw new HttpEdgeError('VALIDATION_ERROR', 'Invalid request: text must not contain a NUL character (\\u0000)', { details });
    });
  },
  { name: 'nul-guard' },
);
