import { z } from 'zod';

/**
 * The error body every route answers with (spec Errors, CONTRACT.md 8): `error` and `code` always,
 * `details` for validation, and the extra fields a DomainError carries (`use`, `provider`,
 * `current`, `limit`, `allowedModels`, ...) kept: the schema is loose so none of them is stripped.
 */
export const errorBody = z
  .looseObject({
    error: z.string().describe('human-readable message'),
    code: z.string().optional().describe('stable machine-readable code (CONTRACT.md 8)'),
    details: z.unknown().optional().describe('what was wrong, e.g. validation issues'),
  })
  .meta({ id: 'Error' });

/** `{success: true}` and friends. */
export const successBody = z.object({ success: z.boolean().describe('true') });
export const messageBody = z.object({ message: z.string() });
