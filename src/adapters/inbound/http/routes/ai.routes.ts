import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EstimateCost } from '../../../../application/ai/estimate-cost.use-case.js';
import { ListModels, type ListedModel } from '../../../../application/ai/list-models.use-case.js';
import { ProviderHealth } from '../../../../application/ai/provider-health.js';
import { SelectModel } from '../../../../application/ai/select-model.use-case.js';
import { AI_PROVIDER_NAMES } from '../../../../domain/ai/ai-model.js';
import { DEFAULT_TASK_TYPE } from '../../../../domain/ai/task-types.js';
import { estimateCostBody, providerParams, selectModelBody } from '../schemas/ai.schema.js';
import type { RouteContext } from './route-context.js';

const now = () => new Date().toISOString();

const modelBody = (m: ListedModel) => ({
  id: m.id,
  name: m.name,
  provider: m.provider,
  description: m.description,
  tags: [...m.tags],
  inputCost: m.inputCost,
  outputCost: m.outputCost,
  contextWindow: m.contextWindow,
  available: m.available,
});

/**
 * The AI layer: health, the model catalog, selection and cost estimation (no authentication),
 * and (next) plan-gated chat.
 */
export const aiRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { container }) => {
  const open = { auth: 'none' as const };

  app.get('/api/ai/health', { config: open }, async (req, reply) => {
    try {
      const report = await container.resolve(ProviderHealth).check();
      return { status: report.status, providers: report.providers, timestamp: now() };
    } catch (err) {
      req.log.error({ err }, 'AI health check failed');
      return reply.status(503).send({ status: 'error', error: 'AI health check failed' });
    }
  });

  app.get('/api/ai/models', { config: open }, async () => {
    const models = container.resolve(ListModels).execute();
    const perProvider = Object.fromEntries(AI_PROVIDER_NAMES.map((p) => [p, models.filter((m) => m.provider === p).length]));
    return { models: models.map(modelBody), count: models.length, ...perProvider, timestamp: now() };
  });

  app.get('/api/ai/models/:provider', { schema: { params: providerParams }, config: open }, async (req) => {
    const models = container.resolve(ListModels).execute(req.params.provider);
    return { provider: req.params.provider, models: models.map(modelBody), count: models.length, timestamp: now() };
  });

  app.post('/api/ai/models/select', { schema: { body: selectModelBody }, config: open }, async (req) => {
    const taskType = req.body?.taskType ?? DEFAULT_TASK_TYPE;
    const model = container.resolve(SelectModel).execute(taskType);
    return { model: { id: model.id, provider: model.provider }, taskType, timestamp: now() };
  });

  app.post('/api/ai/estimate-cost', { schema: { body: estimateCostBody }, config: open }, async (req) => {
    const e = container.resolve(EstimateCost).execute(req.body);
    return { model: e.model, inputTokens: e.inputTokens, outputTokens: e.outputTokens, estimatedCost: e.estimatedCost, currency: 'USD', timestamp: now() };
  });
};
