/**
 * The one table from an error's stable code to an HTTP status. Codes not listed are 500s.
 * Use cases and the domain know codes, never statuses.
 */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  VALIDATION_ERROR: 400,
  INVALID_REFERRAL_CODE: 400,
  INVALID_OR_EXPIRED_TOKEN: 400,
  INVALID_JSON: 400,
  UNKNOWN_ACTION: 400,
  AUTH_REQUIRED: 401,
  TOKEN_INVALID: 401,
  INVALID_CREDENTIALS: 401,
  WRONG_PASSWORD: 401,
  ADMIN_REQUIRED: 403,
  BOT_DETECTED: 403,
  CSRF_TOKEN_MISSING: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  EMAIL_IN_USE: 409,
  DEPRECATED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  AUTH_ERROR: 500,
  UPSTREAM_UNAVAILABLE: 502,
  DATABASE_UNAVAILABLE: 503,
};

export const statusFor = (code: string): number => STATUS_BY_CODE[code] ?? 500;
