import { z } from 'zod';

/** `:userId` is a user id (uuid): anything else is 400, never a lookup. */
export const instanceParams = z.object({ userId: z.string().uuid() });
