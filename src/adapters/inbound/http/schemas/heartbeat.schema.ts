import { z } from 'zod';

/** The frequency's grammar and bounds are the domain's (heartbeat-schedule.ts); here only its type. */
export const heartbeatBody = z.object({
  frequency: z.string().max(32).optional(),
  enabled: z.boolean().optional(),
});
