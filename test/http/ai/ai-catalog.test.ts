import { afterAll, describe, expect, it } from 'vitest';
import { ProviderHealth } from '../../../src/application/ai/provider-health.js';
import { AI_PROVIDER_NAMES } from '../../../src/domain/ai/ai-model.js';
import { MODEL_CATALOG } from '../../../src/domain/ai/model-catalog.js';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { call } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

// openai and anthropic configured, pointed at local wire-format servers; the other three not
const fleet = await startFakeFleet(['openai', 'anthropic']);
afterAll(() => fleet.close());
const { app } = await startTestApp({ env: { ...fleet.env, AI_HEALTH_TTL_MS: '60000' } });

describe('GET /api/ai/health', () => {
  it('reports each provider from its model list, never a billed call, and serves the result from cache', async () => {
    const res = await call(app, { method: 'GET', url: '/api/ai/health' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'healthy',
      providers: { openrouter: false, openai: true, anthropic: true, google: false, ollama: false },
      timestamp: expect.any(String),
    });
    const openai = fleet.server('openai');
    expect(openai.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    expect(fleet.server('anthropic').requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    await call(app, { method: 'GET', url: '/api/ai/health' });
    expect(openai.requests).toHaveLength(1);
  });
});

describe('GET /api/ai/health when a configured provider fails', async () => {
  const down = await startFakeFleet(['openai']);
  afterAll(() => down.close());
  down.setAll({ kind: 'error', status: 500 });
  const { app: app2, container } = await startTestApp({ env: { ...down.env, AI_HEALTH_TTL_MS: '1' } });

  it('answers degraded with that provider false', async () => {
    const res = await call(app2, { method: 'GET', url: '/api/ai/health' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.providers.openai).toBe(false);
  });

  it('when the check itself fails, then 503 {status: error, error}', async () => {
    const health = container.resolve(ProviderHealth);
    const original = health.check.bind(health);
    health.check = async () => {
      throw new Error('boom');
    };
    try {
      const res = await call(app2, { method: 'GET', url: '/api/ai/health' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'error', error: expect.any(String) });
    } finally {
      health.check = original;
    }
  });
});

describe('GET /api/ai/models', () => {
  it('lists the whole catalog with per-provider counts; available means the provider is configured', async () => {
    const res = await call(app, { method: 'GET', url: '/api/ai/models' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(MODEL_CATALOG.length);
    expect(res.body.models).toHaveLength(MODEL_CATALOG.length);
    for (const p of AI_PROVIDER_NAMES) expect(res.body[p]).toBe(MODEL_CATALOG.filter((m) => m.provider === p).length);
    expect(res.body.timestamp).toEqual(expect.any(String));
    const mini = res.body.models.find((m: { id: string }) => m.id === 'openai/gpt-4o-mini');
    expect(mini).toEqual({
      id: 'openai/gpt-4o-mini', name: 'GPT-4o mini', provider: 'openai', description: expect.any(String),
      tags: expect.arrayContaining(['general']), inputCost: 0.15, outputCost: 0.6, contextWindow: 128_000, available: true,
    });
    const availability = Object.fromEntries(res.body.models.map((m: { provider: string; available: boolean }) => [m.provider, m.available]));
    expect(availability).toEqual({ openrouter: false, openai: true, anthropic: true, google: false, ollama: false });
  });
});

describe('GET /api/ai/models/:provider', () => {
  it('lists one provider\'s models', async () => {
    const res = await call(app, { method: 'GET', url: '/api/ai/models/anthropic' });
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe('anthropic');
    expect(res.body.count).toBe(res.body.models.length);
    expect(res.body.models.map((m: { id: string }) => m.id).sort()).toEqual(MODEL_CATALOG.filter((m) => m.provider === 'anthropic').map((m) => m.id).sort());
  });

  it.each(['mistral', 'OpenAI', 'open%20ai'])('when the provider is %j, then 400 VALIDATION_ERROR', async (provider) => {
    const res = await call(app, { method: 'GET', url: `/api/ai/models/${provider}` });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /api/ai/models/select', () => {
  it('defaults to general and picks the first configured model of its ordering', async () => {
    const res = await call(app, { method: 'POST', url: '/api/ai/models/select' });
    expect(res.status).toBe(200);
    // DEFAULT_MODEL (openrouter) is unconfigured here, so the next general model is chosen
    expect(res.body).toEqual({ model: { id: 'openai/gpt-4o-mini', provider: 'openai' }, taskType: 'general', timestamp: expect.any(String) });
  });

  it('selects by task type', async () => {
    const res = await call(app, { method: 'POST', url: '/api/ai/models/select', payload: { taskType: 'reasoning' } });
    expect(res.status).toBe(200);
    expect(res.body.model).toEqual({ id: 'anthropic/claude-sonnet-4-20250514', provider: 'anthropic' });
    expect(res.body.taskType).toBe('reasoning');
  });

  it('when no configured model serves the task type, then 404', async () => {
    // the local model is general but has no vision
    const local = await startFakeFleet(['ollama']);
    try {
      const { app: ollamaOnly } = await startTestApp({ env: local.env });
      const general = await call(ollamaOnly, { method: 'POST', url: '/api/ai/models/select', payload: { taskType: 'general' } });
      expect(general.body.model).toEqual({ id: 'ollama/llama3.2', provider: 'ollama' });
      const res = await call(ollamaOnly, { method: 'POST', url: '/api/ai/models/select', payload: { taskType: 'vision' } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    } finally {
      await local.close();
    }
  });

  it.each([[{ taskType: 'poetry' }], [{ taskType: '' }], [{ taskType: 5 }]])('when the body is %j, then 400', async (payload) => {
    const res = await call(app, { method: 'POST', url: '/api/ai/models/select', payload });
    expect(res.status).toBe(400);
    expect(['VALIDATION_ERROR', 'UNKNOWN_TASK_TYPE']).toContain(res.body.code);
  });
});

describe('POST /api/ai/estimate-cost', () => {
  it('prices input and output tokens at the model\'s list prices', async () => {
    const res = await call(app, { method: 'POST', url: '/api/ai/estimate-cost', payload: { model: 'openai/gpt-4o', inputTokens: 1000, outputTokens: 500 } });
    expect(res.status).toBe(200);
    // 1000 * 2.5 / 1M + 500 * 10 / 1M
    expect(res.body).toEqual({ model: 'openai/gpt-4o', inputTokens: 1000, outputTokens: 500, estimatedCost: 0.0075, currency: 'USD', timestamp: expect.any(String) });
  });

  it('when the model is unknown, then 400 UNKNOWN_MODEL', async () => {
    const res = await call(app, { method: 'POST', url: '/api/ai/estimate-cost', payload: { model: 'acme/unknown', inputTokens: 1, outputTokens: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_MODEL');
  });

  it.each([
    [{ inputTokens: 1, outputTokens: 1 }],
    [{ model: 'openai/gpt-4o', outputTokens: 1 }],
    [{ model: 'openai/gpt-4o', inputTokens: -1, outputTokens: 1 }],
    [{ model: 'openai/gpt-4o', inputTokens: '10', outputTokens: 1 }],
    [{ model: 'openai/gpt-4o', inputTokens: 1.5, outputTokens: 1 }],
  ])('when the body is %j, then 400 VALIDATION_ERROR', async (payload) => {
    const res = await call(app, { method: 'POST', url: '/api/ai/estimate-cost', payload });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});
