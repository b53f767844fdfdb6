import { z } from 'zod';

/** An idempotency key: the same key twice is one payment. */
export const idempotencyKey = z.string().min(1).max(200).regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');
