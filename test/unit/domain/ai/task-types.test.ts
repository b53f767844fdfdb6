import { describe, expect, it } from 'vitest';
import { LABEL_MODEL_IDS, MODEL_CATALOG, modelsForLevel } from '../../../../src/domain/ai/model-catalog.js';
import { selectModels, TASK_RULES, TASK_TYPES } from '../../../../src/domain/ai/task-types.js';
import { CHAT_LEVELS } from '../../../../src/domain/billing/plan-catalogs.js';

const ids = (models: readonly { id: string }[]) => models.map((m) => m.id);

describe('task-type selection', () => {
  it('puts the default model first for general, and honours a configured default', () => {
    expect(selectModels('general', modelsForLevel('label'))[0]?.id).toBe(LABEL_MODEL_IDS[0]);
    expect(selectModels('general', modelsForLevel('network'), LABEL_MODEL_IDS[1])[0]?.id).toBe(LABEL_MODEL_IDS[1]);
  });

  it('orders by the preference list, then cheapest first', () => {
    expect(ids(selectModels('code', MODEL_CATALOG)).slice(0, 3)).toEqual([
      'anthropic/claude-sonnet-4-20250514',
      'openai/gpt-4.1',
      'google/gemini-2.5-pro',
    ]);
    // no preference for cheap: the free local model leads, then ascending blended cost
    const cheap = selectModels('cheap', MODEL_CATALOG);
    expect(cheap[0]?.id).toBe('ollama/llama3.2');
    const costs = cheap.map((m) => m.inputCost + m.outputCost);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
  });

  it('returns only models of the task type as fallbacks', () => {
    for (const taskType of TASK_TYPES) {
      for (const m of selectModels(taskType, MODEL_CATALOG)) expect(m.tags).toContain(TASK_RULES[taskType].tag);
    }
  });

  it('never returns a model above the level, for any level and task type', () => {
    for (const level of CHAT_LEVELS) {
      const allowed = new Set(ids(modelsForLevel(level)));
      for (const taskType of TASK_TYPES) {
        for (const m of selectModels(taskType, modelsForLevel(level))) expect(allowed).toContain(m.id);
      }
    }
  });

  it('offers every task type at the network level and general at every level', () => {
    for (const taskType of TASK_TYPES) expect(selectModels(taskType, modelsForLevel('network')).length).toBeGreaterThan(0);
    for (const level of CHAT_LEVELS) expect(selectModels('general', modelsForLevel(level))).toHaveLength(modelsForLevel(level).length);
  });

  it('returns an empty list when no allowed model serves the task type', () => {
    expect(selectModels('reasoning', modelsForLevel('label'))).toEqual([]);
  });

  it('keeps preference entries pointing at real catalog models', () => {
    const known = new Set(ids(MODEL_CATALOG));
    for (const rule of Object.values(TASK_RULES)) for (const id of rule.prefer) expect(known).toContain(id);
  });

  it('rejects an unknown task type with a typed error', () => {
    expect(() => selectModels('poetry', MODEL_CATALOG)).toThrow(expect.objectContaining({ code: 'UNKNOWN_TASK_TYPE' }));
  });
});
