import { errorCodes } from 'fastify';
import secureJson from 'secure-json-parse';
import { BODY_LIMIT_BYTES } from '../http/body-limit.js';
import { JSON_MAX_DEPTH, nestsDeeperThan, tooDeepError } from '../http/plugins/bounded-json-parser.js';
import { unstorableTextError } from '../http/plugins/storable-text-guard.js';

/**
 * A host call's body, read from its text whichever transport brought it: at most BODY_LIMIT_BYTES
 * (413), JSON (400) nesting at most JSON_MAX_DEPTH deep (400), with no `__proto__` or
 * `constructor.prototype` key (400: read as Fastify's own JSON parser reads it, with the same
 * library and settings), and only text PostgreSQL can store (400). The refusals are the HTTP
 * edge's own errors, so the one error mapping answers them alike on every transport.
 */
export function readHostCallBody(text: string): unknown {
  if (Buffer.byteLength(text) > BODY_LIMIT_BYTES) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  if (text.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  if (nestsDeeperThan(text, JSON_MAX_DEPTH)) throw tooDeepError();
  let body: unknown;
  try {
    body = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) as unknown;
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  const unstorable = unstorableTextError({ body });
  if (unstorable) throw unstorable;
  return body;
}
