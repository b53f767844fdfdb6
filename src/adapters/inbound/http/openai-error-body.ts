/**
 * OpenAI's error body (`{error: {message, type, param, code}}`) for an answer of the `openai` error
 * family (error-map.ts): its status is decided there, as every status is; this writes the body
 * OpenAI's client libraries read. A client library retries 408, 409, 429 and 5xx answers unless
 * told not to (`x-should-retry`): only a rate limit or an unavailable service is worth retrying; a
 * retried agent question would be asked twice.
 */

/** Our error body as the error handler built it. */
interface OurBody {
  readonly error: string;
  readonly code?: string;
  readonly details?: unknown;
  readonly [extra: string]: unknown;
}

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Our codes whose OpenAI code is their own word; the rest follow their status (BY_STATUS). */
const BY_CODE: Readonly<Record<string, readonly [type: string, code: string]>> = {
  RATE_LIMITED: ['requests', 'rate_limit_exceeded'],
  USAGE_EXHAUSTED: ['insufficient_quota', 'insufficient_quota'],
  AGENT_NOT_RUNNING: ['invalid_request_error', 'agent_not_running'],
  PROVIDER_ERROR: ['server_error', 'provider_error'],
  AGENT_REPLY_PENDING: ['server_error', 'agent_reply_pending'],
  INTERNAL: ['server_error', 'internal_error'],
};

const BY_STATUS: Readonly<Record<number, readonly [type: string, code: string]>> = {
  400: ['invalid_request_error', 'invalid_request_error'],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'model_not_allowed'],
  404: ['invalid_request_error', 'model_not_found'],
  413: ['invalid_request_error', 'invalid_request_error'],
  415: ['invalid_request_error', 'invalid_request_error'],
  429: ['insufficient_quota', 'insufficient_quota'],
};

/** Codes whose refusal names the request's `model`. */
const ABOUT_MODEL = new Set(['UNKNOWN_MODEL', 'MODEL_RESTRICTED', 'NOT_FOUND', 'AGENT_NOT_RUNNING']);

/** `body/messages/0/content` or `messages.0.content` as OpenAI writes a parameter: `messages[0].content`. */
export function openAiParam(path: string): string | null {
  const parts = path.split(/[/.]/).filter((p) => p !== '' && p !== 'body');
  if (parts.length === 0) return null;
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
}

function paramOf(code: string | undefined, body: OurBody): string | null {
  if (typeof body.param === 'string') return body.param;
  const first = Array.isArray(body.details) ? (body.details[0] as { path?: unknown } | undefined) : undefined;
  if (typeof first?.path === 'string') return openAiParam(first.path);
  return code && ABOUT_MODEL.has(code) ? 'model' : null;
}

/** The OpenAI body for our answer, and whether a client should retry it. */
export function openAiErrorBody(status: number, body: OurBody): { body: OpenAiErrorBody; retry: boolean } {
  const [type, code] = (body.code && BY_CODE[body.code]) || BY_STATUS[status] || [status >= 500 ? 'server_error' : 'invalid_request_error', (body.code ?? 'error').toLowerCase()];
  return {
    body: { error: { message: body.error, type, param: paramOf(body.code, body), code } },
    retry: code === 'rate_limit_exceeded' || status === 503,
  };
}
