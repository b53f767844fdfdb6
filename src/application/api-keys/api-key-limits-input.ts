import { keyLimitsProblem, type ApiKeyLimits } from '../../domain/accounts/api-key-limits.js';
import { InvalidInputError } from '../errors.js';

/** Refuses (400, nothing written) limits that could never hold: an unknown model id, an expiry not in the future. */
export function assertKeyLimitsValid(limits: Partial<ApiKeyLimits>, now: Date): void {
  const problem = keyLimitsProblem(limits, now);
  if (!problem) return;
  const { field, message } = problem;
  throw new InvalidInputError('VALIDATION_ERROR', `Invalid request: body/${field} ${message}`, { field, details: [{ path: `body/${field}`, message }] });
}
