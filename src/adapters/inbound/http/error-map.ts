/**
 * The one table from an error's stable code to an HTTP status. Codes not listed are 500s.
 * Use cases and the domain know codes, never statuses.
 */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  VALIDATION_ERROR: 400,
  WEBHOOK_SIGNATURE_INVALID: 400,
  WEBHOOK_PAYLOAD_INVALID: 400,
  DEV_CHECKOUT_INVALID: 400,
  UNKNOWN_PRICE: 400,
  UNKNOWN_MODEL: 400,
  UNKNOWN_TASK_TYPE: 400,
  MODEL_TOOLS_UNSUPPORTED: 400,
  INVALID_TOKEN_COUNT: 400,
  INVALID_REFERRAL_CODE: 400,
  INVALID_OR_EXPIRED_TOKEN: 400,
  INVALID_JSON: 400,
  WEBHOOK_TARGET_REFUSED: 400,
  UNKNOWN_ACTION: 400,
  MEMORY_VALUE_TOO_LARGE: 400,
  MEMORY_TOO_MANY_KEYS: 400,
  MEMORY_KEY_INVALID: 400,
  MEMORY_KEY_LIMIT_REACHED: 400,
  VERIFICATION_FAILED: 400,
  INVALID_SIWE_MESSAGE: 400,
  OAUTH_STATE_INVALID: 400,
  OAUTH_EMAIL_REQUIRED: 400,
  WALLET_EXISTS: 400,
  INVALID_PRIVATE_KEY: 400,
  INSUFFICIENT_FUNDS: 400,
  IDEMPOTENCY_KEY_REUSED: 409,
  WALLET_NOT_EMPTY: 409,
  PAYOUTS_UNFINISHED: 409,
  AUTH_REQUIRED: 401,
  TOKEN_INVALID: 401,
  INVALID_CREDENTIALS: 401,
  WRONG_PASSWORD: 401,
  WALLET_SIGN_IN_REJECTED: 401,
  SOCIAL_TOKEN_MISSING: 401,
  SOCIAL_TOKEN_INVALID: 401,
  REFRESH_TOKEN_INVALID: 401,
  OAUTH_REJECTED: 401,
  PAYMENT_REQUIRED: 402,
  PLAN_REQUIRED: 402,
  SUBSCRIPTION_REQUIRED: 402,
  ADMIN_REQUIRED: 403,
  MODEL_RESTRICTED: 403,
  KEY_MODEL_NOT_ALLOWED: 403,
  BOT_DETECTED: 403,
  CSRF_TOKEN_MISSING: 403,
  ORIGIN_NOT_ALLOWED: 403,
  INSTANCE_FORBIDDEN: 403,
  SKILL_CAPABILITY_DENIED: 403,
  INSUFFICIENT_TOKEN_BALANCE: 403,
  SEED_EXPORT_FORBIDDEN: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  EMAIL_IN_USE: 409,
  FID_ALREADY_LINKED: 409,
  OAUTH_ACCOUNT_NOT_LINKABLE: 409,
  AGENT_INVALID_TRANSITION: 409,
  AGENT_NOT_RUNNING: 409,
  ESCROW_EXISTS: 409,
  GUESTLIST_FULL: 409,
  TICKETS_SOLD_OUT: 409,
  ALREADY_SUBSCRIBED: 409,
  NO_BILLING_CUSTOMER: 409,
  DEPRECATED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  USAGE_EXHAUSTED: 429,
  KEY_BUDGET_EXHAUSTED: 429,
  AGENT_LIMIT_REACHED: 429,
  SKILL_LIMIT_REACHED: 429,
  CLIENT_CLOSED_REQUEST: 499,
  AGENT_REPLY_PENDING: 504,
  NOT_CONFIGURED: 501,
  AUTH_ERROR: 500,
  PROVIDER_ERROR: 500,
  HOSTED_WALLET_NOT_CONFIGURED: 500,
  UPSTREAM_UNAVAILABLE: 502,
  SETTLEMENT_FAILED: 502,
  NO_PLUGIN: 502,
  DATABASE_UNAVAILABLE: 503,
  WEBHOOK_NOT_CONFIGURED: 503,
  PAYMENTS_NOT_CONFIGURED: 503,
  PRICE_NOT_CONFIGURED: 503,
  PROVIDER_UNAVAILABLE: 503,
  PROVIDER_NOT_CONFIGURED: 503,
  CHAIN_NOT_CONFIGURED: 503,
  SOCIAL_NOT_CONFIGURED: 503,
  OAUTH_NOT_CONFIGURED: 503,
};

export const statusFor = (code: string): number => STATUS_BY_CODE[code] ?? 500;

const PROVIDER_NOT_CONFIGURED_TEXT =
  'No AI model provider is configured on this service, so the agent cannot answer. The operator sets one (OPENAI_API_KEY, OPENROUTER_API_KEY, ...): README, "Talk to your agent"';

/**
 * The route families whose statuses the spec makes differ from the table above, for the same code
 * (CONTRACT.md sections 7 and 8). A route names its family in its config (`errorFamily`) and the
 * one error handler answers by these rules; a route without one follows the table alone, as
 * `/api/ai/*` does (there a provider failure is the spec's 500 `PROVIDER_ERROR`).
 * - `agent` (`POST /api/chat`, the agent's websocket, `POST /api/agent` chat, `/api/runtime/chat`):
 *   a provider failure is the agent's upstream failing, 502 `PROVIDER_ERROR`.
 * - `gateway`: a plugin's provider failure, configured or not, is 502 `PROVIDER_ERROR`; other coded
 *   refusals (429 usage exhausted, 403 model restricted, 404) keep their status. The spec names three
 *   of its bodies: 401 `{error: "Unauthorized"}`, 502 `{error: "no_plugin", message}` and an
 *   unexpected failure's 500 `{error: "internal"}`.
 * - `openai` (`/v1`, the OpenAI-compatible API, CONTRACT.md "OpenAI-compatible API"): OpenAI's
 *   statuses (a provider failure, configured or not, 502; no subscription or no units 429; an
 *   unknown model or another user's agent 404) and OpenAI's body `{error: {message, type, param,
 *   code}}`, written from ours by openai-error-body.ts.
 */
export type ErrorFamily = 'agent' | 'gateway' | 'openai';

export interface HttpError {
  status: number;
  code: string;
}

/** An error body; `code` is always set, but in the few bodies a spec names without one. */
export type ErrorBodyShape = Readonly<{ error: string; code?: string; [extra: string]: unknown }>;

interface FamilyRules {
  /** Codes answered otherwise than the table says: another status, and maybe another code. */
  readonly codes: Readonly<Record<string, HttpError>>;
  /** Codes whose whole body the family's spec names, built from the error's message. */
  readonly bodies?: Readonly<Record<string, (message: string) => ErrorBodyShape>>;
  /** The body of an unexpected failure (500). */
  readonly internal: ErrorBodyShape;
}

const INTERNAL_BODY = { error: 'Internal server error', code: 'INTERNAL' } as const;
const PROVIDER_FAILED: HttpError = { status: 502, code: 'PROVIDER_ERROR' };

const QUOTA: HttpError = { status: 429, code: 'USAGE_EXHAUSTED' };

const FAMILIES: Readonly<Record<ErrorFamily, FamilyRules>> = {
  agent: { codes: { PROVIDER_ERROR: PROVIDER_FAILED }, internal: INTERNAL_BODY },
  gateway: {
    codes: { PROVIDER_ERROR: PROVIDER_FAILED, PROVIDER_UNAVAILABLE: PROVIDER_FAILED },
    bodies: { AUTH_REQUIRED: () => ({ error: 'Unauthorized' }), NO_PLUGIN: (message) => ({ error: 'no_plugin', message }) },
    internal: { error: 'internal' },
  },
  openai: {
    codes: {
      PROVIDER_ERROR: PROVIDER_FAILED,
      PROVIDER_UNAVAILABLE: PROVIDER_FAILED,
      // no subscription pays: OpenAI's "insufficient quota", as when the units are spent
      SUBSCRIPTION_REQUIRED: QUOTA,
      KEY_BUDGET_EXHAUSTED: QUOTA,
      UNKNOWN_MODEL: { status: 404, code: 'UNKNOWN_MODEL' },
      KEY_MODEL_NOT_ALLOWED: { status: 403, code: 'MODEL_RESTRICTED' },
    },
    internal: INTERNAL_BODY,
  },
};

/** The status and code an error's code is answered with on a route of `family` (none: the table's). */
export const httpErrorFor = (code: string, family?: ErrorFamily): HttpError =>
  (family && FAMILIES[family].codes[code]) || { status: statusFor(code), code };

/** The body of an unexpected failure: the spec names the gateway's, every other route's is `INTERNAL`. */
export const internalErrorBody = (family?: ErrorFamily): ErrorBodyShape => (family ? FAMILIES[family].internal : INTERNAL_BODY);

/** The body the family's spec names for this code, if it names one (else `{error, code, ...details}`). */
export const namedErrorBody = (code: string, message: string, family?: ErrorFamily): ErrorBodyShape | undefined => (family ? FAMILIES[family].bodies?.[code]?.(message) : undefined);

/**
 * How an agent's failed answer is told to the caller of `POST /api/chat` (CONTRACT.md section 7),
 * the agent's websocket and `POST /api/agent` chat: the code it is told with, and the sentence
 * that replaces the stored text when there is one. The status is the code's on the `agent` family
 * (a provider failure is 502 `PROVIDER_ERROR`). A refusal the owner can act on keeps its code (402,
 * 403, 409, 429); no provider configured at all is 503 `PROVIDER_NOT_CONFIGURED` with its own
 * sentence (retrying cannot help: the operator must configure one); anything else (the runtime
 * unreachable, timed out, or the answer interrupted) is 502 `UPSTREAM_UNAVAILABLE`.
 */
export function agentFailure(code: string): { code: string; error?: string } {
  if (code === 'PROVIDER_UNAVAILABLE') return { code: 'PROVIDER_NOT_CONFIGURED', error: PROVIDER_NOT_CONFIGURED_TEXT };
  const answer = httpErrorFor(code, 'agent');
  if (answer.status === 502 || answer.status === 402 || answer.status === 403 || answer.status === 409 || answer.status === 429) return { code: answer.code };
  return { code: 'UPSTREAM_UNAVAILABLE' };
}
