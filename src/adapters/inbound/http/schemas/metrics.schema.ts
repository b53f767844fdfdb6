import { z } from 'zod';
import { METRICS_RANGES } from '../../../../domain/metrics/metrics-range.js';

/** `:userId` is a user id (uuid): anything else is 400, never a lookup. */
export const metricsParams = z.object({ userId: z.string().uuid() });

/** `range` is one of the spec's three, `24h` when omitted; anything else is 400. */
export const historicalQuery = z.object({ range: z.enum(METRICS_RANGES).default('24h') });
