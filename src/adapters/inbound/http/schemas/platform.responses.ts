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

/** A key's limits as shown (decision 0425): null is no such limit. */
const apiKeyLimitsFields = {
  dailyUnits: z.number().nullable(),
  models: z.array(z.string()).nullable(),
  expiresAt: z.string().nullable(),
  rateLimit: z.number().nullable(),
};
export const apiKeyResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    keyPreview: z.string(),
    createdAt: z.string(),
    lastUsed: z.string().nullable(),
    ...apiKeyLimitsFields,
    unitsUsed: z.number().describe('units the key spent (or holds for calls in flight) today, UTC'),
  })
  .meta({ id: 'ApiKey' });
export const apiKeysResponse = z.object({ keys: z.array(apiKeyResponse) });
export const createdApiKeyResponse = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string().describe('the full key, shown only here'),
  keyPreview: z.string(),
  createdAt: z.string(),
  ...apiKeyLimitsFields,
});

/** Metrics (spec "Metrics"): the fields the spec names, the rest kept (loose: figures may grow). */
export const platformMetricsResponse = z.looseObject({
  metrics: z.looseObject({
    agents: z.looseObject({ total: z.number(), active: z.number(), inactive: z.number(), failed: z.number() }),
    messages: z.looseObject({ today: z.number(), thisWeek: z.number(), thisMonth: z.number() }),
    deployments: z.looseObject({ total: z.number(), successful: z.number(), failed: z.number() }),
    uptime: z.looseObject({}),
    performance: z.looseObject({}),
    storage: z.looseObject({}),
  }),
  timestamp: z.string(),
  status: z.string(),
});
export const historicalMetricsResponse = z.looseObject({ userId: z.string(), timeRange: z.string(), metrics: z.array(z.looseObject({ timestamp: z.string() })), averages: z.looseObject({}) });
export const performanceMetricsResponse = z.looseObject({ cpu: z.number(), memory: z.number(), errorRate: z.unknown(), responseTime: z.number() });
export const summaryMetricsResponse = z.looseObject({ revenue: z.looseObject({}), bookings: z.looseObject({}), fans: z.looseObject({}), streams: z.looseObject({}), skills: z.looseObject({}) });
export const prometheusText = z.string().describe('Prometheus text exposition format (text/plain; version=0.0.4)');

/** Admin webhook endpoints (docs/operations.md, Webhooks). */
const webhookEndpoint = z.looseObject({ id: z.string(), url: z.string(), eventTypes: z.array(z.string()) });
export const webhookEndpointWithSecretResponse = webhookEndpoint.extend({ secret: z.string().describe('whsec_…: shown only here and on rotation') });
export const webhookEndpointsResponse = z.looseObject({ endpoints: z.array(webhookEndpoint) });
export const webhookDeliveriesResponse = z.looseObject({ deliveries: z.array(z.looseObject({ id: z.string(), status: z.string() })) });
export const successResponse = z.looseObject({ success: z.boolean() });

/** The gateway's success body (spec "Gateway"); `text/event-stream` frames when streaming (docs/decisions/0106-gateway-streaming.md). */
export const gatewayResponse = z.looseObject({ plugin: z.string(), message: z.unknown(), timestamp: z.string(), payment: z.looseObject({ method: z.string(), receipt: z.string().nullable() }) });
export const noContent = z.null().describe('no body (CORS preflight)');
export const metricsFailureResponse = z.looseObject({ error: z.string(), metrics: z.looseObject({}) });
