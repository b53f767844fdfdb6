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
  BOT_DETECTED: 403,
  CSRF_TOKEN_MISSING: 403,
  INSTANCE_FORBIDDEN: 403,
  SKILL_CAPABILITY_DENIED: 403,
  INSUFFICIENT_TOKEN_BALANCE: 403,
  SEED_EXPORT_FORBIDDEN: 403,
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
  AGENT_LIMIT_REACHED: 429,
  SKILL_LIMIT_REACHED: 429,
  CLIENT_CLOSED_REQUEST: 499,
  NOT_CONFIGURED: 501,
  AUTH_ERROR: 500,
  PROVIDER_ERROR: 500,
  HOSTED_WALLET_NOT_CONFIGURED: 500,
  UPSTREAM_UNAVAILABLE: 502,
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

/** The code an agent's stored failure is told to its owner with (a websocket error frame, a failed message's mark). */
export const agentFailureCode = (code: string): string => (code === 'PROVIDER_UNAVAILABLE' ? 'PROVIDER_NOT_CONFIGURED' : code);

/**
 * How an agent's failed answer is told to the caller of `POST /api/chat` (CONTRACT.md section 7),
 * and the status of `POST /api/runtime/chat` for the same codes. There a provider failure is a
 * 502 `PROVIDER_ERROR` (the agent's upstream failed), unlike `/api/ai/chat` where the spec makes it
 * a 500: same code, another status, decided here so the table above stays the spec's.
 * A refusal the owner can act on keeps its code and status (402, 403, 409, 429); no provider
 * configured at all is 503 `PROVIDER_NOT_CONFIGURED` with its own sentence (retrying cannot help:
 * the operator must configure one); a provider that failed is 502 `PROVIDER_ERROR`; anything else
 * (the runtime unreachable, timed out, or the answer interrupted) is 502 `UPSTREAM_UNAVAILABLE`.
 * `reason` keeps the original code; `error`, when given, replaces the stored text.
 */
export function agentFailureResponse(code: string): { status: number; code: string; error?: string } {
  if (code === 'PROVIDER_UNAVAILABLE') return { status: 503, code: 'PROVIDER_NOT_CONFIGURED', error: PROVIDER_NOT_CONFIGURED_TEXT };
  if (code === 'PROVIDER_ERROR') return { status: 502, code: 'PROVIDER_ERROR' };
  const status = STATUS_BY_CODE[code];
  if (status === 402 || status === 403 || status === 409 || status === 429) return { status, code };
  return { status: 502, code: 'UPSTREAM_UNAVAILABLE' };
}

/**
 * On the gateway a plugin's provider failure is 502 `PROVIDER_ERROR` (CONTRACT.md section 8), not
 * chat's 500; other coded refusals (429 usage exhausted, 403 model restricted, 404) keep their status.
 */
export const isGatewayProviderFailure = (code: string): boolean => code === 'PROVIDER_ERROR' || code === 'PROVIDER_UNAVAILABLE';
