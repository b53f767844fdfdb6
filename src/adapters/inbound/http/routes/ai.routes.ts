import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AiSettings } from '../../../../application/ports/ai-settings.port.js';
import type { AuthorizeChat } from '../../../../application/ai/authorize-chat.use-case.js';
import type { ChatAnswer } from '../../../../application/ai/chat-call.js';
import type { ChatMetering } from '../../../../application/ai/chat-metering.js';
import type { CompleteChat } from '../../../../application/ai/complete-chat.use-case.js';
import type { EstimateCost } from '../../../../application/ai/estimate-cost.use-case.js';
import type { ListModels, ListedModel } from '../../../../application/ai/list-models.use-case.js';
import type { ProviderHealth } from '../../../../application/ai/provider-health.js';
import type { SelectModel } from '../../../../application/ai/select-model.use-case.js';
import type { StreamChat, ChatStream } from '../../../../application/ai/stream-chat.use-case.js';
import { AI_PROVIDER_NAMES } from '../../../../domain/ai/ai-model.js';
import { DEFAULT_TASK_TYPE } from '../../../../domain/ai/task-types.js';
import { chatBody, chatHeaders, estimateCostBody, providerParams, selectModelBody } from '../schemas/ai.schema.js';
import { eventStream } from '../openapi/route-documentation.js';
import type { RouteEdge } from './route-context.js';
import { abortOnClientClose } from '../client-close.js';
import { headerText } from '../request-headers.js';
import { sendEventStream, sseFrame, wantsEventStream } from '../server-sent-events.js';
import { aiHealthFailedResponse, aiHealthResponse, chatAnswerResponse, costEstimateResponse, modelsResponse, providerModelsResponse, selectedModelResponse } from '../schemas/ai.responses.js';

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

const answerBody = (a: ChatAnswer) => ({
  id: a.id,
  model: a.model,
  provider: a.provider,
  message: { role: 'assistant' as const, content: a.content },
  usage: { promptTokens: a.usage.promptTokens, completionTokens: a.usage.completionTokens, totalTokens: a.usage.totalTokens },
  timestamp: now(),
});

/** A committed chat stream as server-sent events: `start`, `delta`s, then one `done` (the full answer) or `error`. */
async function* sseFrames(stream: ChatStream): AsyncGenerator<string> {
  yield sseFrame('start', { model: stream.model.id, provider: stream.model.provider });
  for await (const e of stream.events) {
    if (e.type === 'delta') yield sseFrame('delta', { content: e.text });
    else if (e.type === 'done') yield sseFrame('done', answerBody(e.answer));
    else yield sseFrame('error', { error: e.message, code: e.code });
  }
}

export interface AiRouteDeps {
  aiSettings: AiSettings;
  chatMetering: ChatMetering;
  providerHealth: ProviderHealth;
  listModels: ListModels;
  selectModel: SelectModel;
  estimateCost: EstimateCost;
  authorizeChat: AuthorizeChat;
  completeChat: CompleteChat;
  streamChat: StreamChat;
}

/**
 * The AI layer: health, the model catalog, selection and cost estimation (no authentication),
 * and plan-gated chat (authenticated: session, API key or JWT).
 */
export const aiRoutes: FastifyPluginAsyncZod<RouteEdge & AiRouteDeps> = async (app, { aiSettings: settings, chatMetering, providerHealth, listModels, selectModel, estimateCost, authorizeChat, completeChat, streamChat }) => {
  const open = { auth: 'none' as const };
  // settlements run after the answers went out: let them finish before the pools close
  app.addHook('onClose', async () => chatMetering.drain());

  app.get('/api/ai/health', { schema: { response: { 200: aiHealthResponse, 503: aiHealthFailedResponse } }, config: open }, async (req, reply) => {
    try {
      const report = await providerHealth.check();
      return { status: report.status, providers: report.providers, timestamp: now() };
    } catch (err) {
      req.log.error({ err }, 'AI health check failed');
      return reply.status(503).send({ status: 'error', error: 'AI health check failed' });
    }
  });

  app.get('/api/ai/models', { schema: { response: { 200: modelsResponse } }, config: open }, async () => {
    const models = listModels.execute();
    const perProvider = Object.fromEntries(AI_PROVIDER_NAMES.map((p) => [p, models.filter((m) => m.provider === p).length]));
    return { models: models.map(modelBody), count: models.length, ...perProvider, timestamp: now() };
  });

  app.get('/api/ai/models/:provider', { schema: { params: providerParams, response: { 200: providerModelsResponse } }, config: open }, async (req) => {
    const models = listModels.execute(req.params.provider);
    return { provider: req.params.provider, models: models.map(modelBody), count: models.length, timestamp: now() };
  });

  app.post('/api/ai/models/select', { schema: { body: selectModelBody, response: { 200: selectedModelResponse } }, config: open }, async (req) => {
    const taskType = req.body?.taskType ?? DEFAULT_TASK_TYPE;
    const model = selectModel.execute(taskType);
    return { model: { id: model.id, provider: model.provider }, taskType, timestamp: now() };
  });

  app.post('/api/ai/estimate-cost', { schema: { body: estimateCostBody, response: { 200: costEstimateResponse } }, config: open }, async (req) => {
    const e = estimateCost.execute(req.body);
    return { model: e.model, inputTokens: e.inputTokens, outputTokens: e.outputTokens, estimatedCost: e.estimatedCost, currency: 'USD', timestamp: now() };
  });

  app.post(
    '/api/ai/chat',
    {
      schema: { response: { 200: chatAnswerResponse } },
      config: {
        auth: 'required',
        // the plan headers are checked before the body (spec order): documented, not validated first
        openapi: { body: chatBody, headers: chatHeaders, media: { 200: { 'application/json': 'response', 'text/event-stream': eventStream } } },
        rateLimit: { max: settings.chatRateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => req.actor?.userId ?? req.ip },
      },
    },
    async (req, reply) => {
      // the headers are judged now, the subscription while the call's units are reserved
      const grant = authorizeChat.execute(req.actor!, { plan: headerText(req, 'x-user-plan'), subscriptionId: headerText(req, 'x-payment-subscription-id') });
      const parsed = chatBody.safeParse(req.body);
      if (!parsed.success) {
        await grant.confirmation; // a refused subscription is said before a bad body
        throw parsed.error;
      }
      const body = parsed.data;
      const input = { messages: body.messages, model: body.model, taskType: body.taskType, temperature: body.temperature, topP: body.top_p, maxTokens: body.max_tokens };
      const signal = abortOnClientClose(reply);
      if (!wantsEventStream(req)) return answerBody(await completeChat.execute(grant, input, signal));
      const stream = await streamChat.execute(grant, input, signal);
      return sendEventStream(reply, sseFrames(stream));
    },
  );
};
