import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { DomainError } from '../../../../domain/shared/domain-error.js';
import { AgentAnswerFailedError } from '../http-error.js';
import { httpErrorFor, internalErrorBody, namedErrorBody, statusFor, type ErrorFamily } from '../error-map.js';
import { openAiErrorBody } from '../openai-error-body.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route family whose rules its errors follow (error-map.ts `ErrorFamily`); none: the table's. */
    errorFamily?: ErrorFamily;
  }
}

/** Fastify's own client-error codes, as ours. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_ERROR',
  FST_ERR_VALIDATION: 'VALIDATION_ERROR',
};

interface ErrorBody {
  error: string;
  /** Always set, but on the gateway's unexpected failure, whose body the spec names `{error: "internal"}`. */
  code?: string;
  details?: unknown;
  [extra: string]: unknown;
}

/**
 * The single place where errors become HTTP. Domain errors answer their code's status with
 * `{error, code, ...details}`, by the rules of the route's family when it names one (error-map.ts);
 * validation answers 400 with `details`; anything unknown is logged with the request id and
 * answered with a generic 500.
 */
export function errorHandler(this: FastifyInstance, err: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) {
  const family = request.routeOptions.config?.errorFamily;
  const { status, body } = toResponse(err, family);
  // an agent's failed answer is stored and logged where it failed: this request only tells it
  if (status >= 500 && !(err instanceof AgentAnswerFailedError)) request.log.error({ err }, 'request failed');
  else request.log.info({ code: body.code, status }, 'request rejected');
  if (body.code === 'RATE_LIMITED' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
  if (family !== 'openai') return reply.status(status).send(body);
  const openAi = openAiErrorBody(status, body);
  return reply.status(status).header('x-should-retry', String(openAi.retry)).send(openAi.body);
}

/** The status and body an error is answered with (also by answers given outside HTTP: host-calls/in-process-host-calls.ts). */
export function toResponse(err: FastifyError | DomainError, family: ErrorFamily | undefined): { status: number; body: ErrorBody } {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details = err.validation.map((v) => ({ path: `${err.validationContext ?? ''}${v.instancePath.replace(/\/$/, '')}${unknownField(v.params)}`, message: v.message }));
    return { status: 400, body: { error: describe(details), code: 'VALIDATION_ERROR', details } };
  }
  if (err instanceof ZodError) {
    const details = err.issues.map((i) => ({ path: [...i.path, ...(i.code === 'unrecognized_keys' ? i.keys.slice(0, 1) : [])].join('.'), message: i.message }));
    return { status: 400, body: { error: describe(details), code: 'VALIDATION_ERROR', details } };
  }
  if (err instanceof DomainError) {
    const { status, code } = httpErrorFor(err.code, family);
    const named = namedErrorBody(code, err.message, family);
    if (named) return { status, body: { ...named } };
    const body: ErrorBody = { ...(err.details ?? {}), error: err.message, code };
    // CONTRACT.md 8: every VALIDATION_ERROR says where; a check that named no field names the request.
    if (body.code === 'VALIDATION_ERROR' && body.details === undefined) body.details = [{ path: '', message: err.message }];
    return { status, body };
  }
  if (!('statusCode' in err) && !err.code) return { status: 500, body: { ...internalErrorBody(family) } };
  const fastifyCode = err.code && FASTIFY_CODES[err.code];
  if (fastifyCode === 'VALIDATION_ERROR') return { status: 400, body: { error: err.message, code: fastifyCode, details: [{ path: '', message: err.message }] } };
  if (fastifyCode) return { status: statusFor(fastifyCode), body: { error: err.message, code: fastifyCode } };
  if (err.statusCode === 429) return { status: 429, body: { error: 'Too many requests', code: 'RATE_LIMITED' } };
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return { status: err.statusCode, body: { error: err.message, code: err.code ?? 'BAD_REQUEST' } };
  }
  return { status: 500, body: { ...internalErrorBody(family) } };
}

/** A field the schema does not take is named in the path, as any other field's mistake is (zod reports it on its object). */
function unknownField(params: unknown): string {
  const keys = (params as { keys?: unknown } | undefined)?.keys;
  return Array.isArray(keys) && typeof keys[0] === 'string' ? `/${keys[0]}` : '';
}

const describe = (details: { path: string; message: string }[]) =>
  details.length ? `Invalid request: ${details.map((d) => `${d.path || 'body'} ${d.message}`).join('; ')}` : 'Invalid request';
