import { DomainError } from '../../../domain/shared/domain-error.js';

/** The database could not be reached or dropped the connection. HTTP: 503; jobs retry. */
export class DatabaseUnavailableError extends DomainError {
  constructor(override readonly cause?: unknown) {
    super('DATABASE_UNAVAILABLE', 'The database is unavailable, try again shortly');
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

/** True for errors that mean "no usable connection", as opposed to a bad statement. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  if (code && CONNECTION_CODES.has(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(err.message);
}

export const isUniqueViolation = (err: unknown, constraint?: string): boolean =>
  (err as { code?: string })?.code === '23505' &&
  (constraint === undefined || (err as { constraint?: string }).constraint === constraint);
