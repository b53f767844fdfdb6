import { z } from 'zod';

/** Response bodies of the AI layer (spec "AI layer"). */
const model = z
  .object({
    id: z.string(),
    name: z.string(),
    provider: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    inputCost: z.number(),
    outputCost: z.number(),
    contextWindow: z.number(),
    available: z.boolean(),
  })
  .meta({ id: 'AiModel' });

export const aiHealthResponse = z.object({ status: z.string(), providers: z.record(z.string(), z.boolean()), timestamp: z.string() });
export const aiHealthFailedResponse = z.object({ status: z.string(), error: z.string() });
/** Also one `<provider>: number of models` field per provider. */
export const modelsResponse = z.looseObject({ models: z.array(model), count: z.number(), timestamp: z.string() });
export const providerModelsResponse = z.object({ provider: z.string(), models: z.array(model), count: z.number(), timestamp: z.string() });
export const selectedModelResponse = z.object({ model: z.object({ id: z.string(), provider: z.string() }), taskType: z.string(), timestamp: z.string() });
export const costEstimateResponse = z.object({ model: z.string(), inputTokens: z.number(), outputTokens: z.number(), estimatedCost: z.number(), currency: z.string(), timestamp: z.string() });
/** With `Accept: text/event-stream` the answer is server-sent events instead: `start`, `delta`s, then `done` (this body) or `error`. */
export const chatAnswerResponse = z
  .object({
    id: z.string(),
    model: z.string(),
    provider: z.string(),
    message: z.object({ role: z.literal('assistant'), content: z.string() }),
    usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() }),
    timestamp: z.string(),
  })
  .meta({ id: 'ChatAnswer' });
