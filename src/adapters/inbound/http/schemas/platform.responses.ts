import { z } from 'zod';

/** Response bodies of health, heartbeat and API keys (spec "Health and heartbeat", "API keys"). */
export const healthResponse = z.object({
  status: z.string(),
  health: z.string().describe('see States: Health value'),
  timestamp: z.string(),
  cpu: z.object({ usage: z.number(), cores: z.number() }),
  memory: z.object({ usage: z.number(), total: z.number(), used: z.number(), free: z.number() }),
  uptime: z.number(),
});
export const unhealthyResponse = z.object({ status: z.string(), health: z.string(), timestamp: z.string() });
export const livenessResponse = z.object({ status: z.enum(['ok', 'error']), database: z.enum(['up', 'down']), timestamp: z.string() });

const heartbeatFields = { frequency: z.string(), enabled: z.boolean(), lastHeartbeat: z.string().nullable(), nextHeartbeat: z.string().nullable() };
export const heartbeatResponse = z.object({ heartbeat: z.object(heartbeatFields), message: z.string() });
export const savedHeartbeatResponse = z.object({ ...heartbeatFields, lastUpdated: z.string(), message: z.string() });
export const resetHeartbeatResponse = z.object({ success: z.boolean(), message: z.string() });

export const apiKeyResponse = z
  .object({ id: z.string(), name: z.string(), keyPreview: z.string(), createdAt: z.string(), lastUsed: z.string().nullable() })
  .meta({ id: 'ApiKey' });
export const apiKeysResponse = z.object({ keys: z.array(apiKeyResponse) });
export const createdApiKeyResponse = z.object({ id: z.string(), name: z.string(), key: z.string().describe('the full key, shown only here'), keyPreview: z.string(), createdAt: z.string() });
