import { describe, expect, it } from 'vitest';
import { AI_PROVIDER_NAMES } from '../../../../src/domain/ai/ai-model.js';
import {
  DEFAULT_MODEL_ID,
  findModel,
  isModelAllowed,
  LABEL_MODEL_IDS,
  MODEL_CATALOG,
  modelsForLevel,
  requireModel,
  resolveDefaultModelId,
} from '../../../../src/domain/ai/model-catalog.js';
import { CHAT_LEVELS } from '../../../../src/domain/billing/plan-catalogs.js';
import { DomainError } from '../../../../src/domain/shared/domain-error.js';

const ids = (models: readonly { id: string }[]) => models.map((m) => m.id);

describe('model catalog', () => {
  it('gives label 2 models, solo 4, collective 6 and network all of at least 8', () => {
    expect(modelsForLevel('label')).toHaveLength(2);
    expect(modelsForLevel('solo')).toHaveLength(4);
    expect(modelsForLevel('collective')).toHaveLength(6);
    expect(modelsForLevel('network')).toHaveLength(MODEL_CATALOG.length);
    expect(MODEL_CATALOG.length).toBeGreaterThanOrEqual(8);
  });

  it('nests the levels: each sees the level below plus its own models', () => {
    for (let i = 1; i < CHAT_LEVELS.length; i++) {
      const lower = ids(modelsForLevel(CHAT_LEVELS[i - 1]!));
      expect(ids(modelsForLevel(CHAT_LEVELS[i]!))).toEqual(expect.arrayContaining(lower));
    }
  });

  it('names the label set and puts the default model in it', () => {
    expect(ids(modelsForLevel('label')).sort()).toEqual([...LABEL_MODEL_IDS].sort());
    expect(LABEL_MODEL_IDS).toContain(DEFAULT_MODEL_ID);
  });

  it('spreads the models over all five providers, with a free local ollama model', () => {
    expect(new Set(MODEL_CATALOG.map((m) => m.provider))).toEqual(new Set(AI_PROVIDER_NAMES));
    const local = MODEL_CATALOG.filter((m) => m.provider === 'ollama');
    expect(local.length).toBeGreaterThan(0);
    for (const m of local) expect([m.inputCost, m.outputCost]).toEqual([0, 0]);
  });

  it('has unique <vendor>/<model> ids and sane numbers', () => {
    expect(new Set(ids(MODEL_CATALOG)).size).toBe(MODEL_CATALOG.length);
    for (const m of MODEL_CATALOG) {
      expect(m.id).toMatch(/^[a-z0-9.-]+\/[A-Za-z0-9.:_-]+$/);
      expect(m.inputCost).toBeGreaterThanOrEqual(0);
      expect(m.outputCost).toBeGreaterThanOrEqual(0);
      expect(m.contextWindow).toBeGreaterThan(0);
      expect(m.tags.length).toBeGreaterThan(0);
    }
  });

  it('finds models by id and refuses unknown ones', () => {
    expect(findModel(DEFAULT_MODEL_ID)?.id).toBe(DEFAULT_MODEL_ID);
    expect(findModel('nobody/nothing')).toBeUndefined();
    expect(() => requireModel('nobody/nothing')).toThrow(expect.objectContaining({ code: 'UNKNOWN_MODEL' }));
  });

  it('allows a model at its level and above, never below or when unknown', () => {
    const network = MODEL_CATALOG.find((m) => m.minLevel === 'network')!;
    expect(isModelAllowed(network.id, 'network')).toBe(true);
    expect(isModelAllowed(network.id, 'collective')).toBe(false);
    expect(isModelAllowed(DEFAULT_MODEL_ID, 'label')).toBe(true);
    expect(isModelAllowed('nobody/nothing', 'network')).toBe(false);
  });

  it('accepts either label model as DEFAULT_MODEL and defaults when unset', () => {
    expect(resolveDefaultModelId(undefined)).toBe(DEFAULT_MODEL_ID);
    expect(resolveDefaultModelId('  ')).toBe(DEFAULT_MODEL_ID);
    for (const id of LABEL_MODEL_IDS) expect(resolveDefaultModelId(id)).toBe(id);
  });

  it('rejects a DEFAULT_MODEL outside the label set with a typed error', () => {
    const aboveLabel = MODEL_CATALOG.find((m) => m.minLevel !== 'label')!;
    for (const bad of [aboveLabel.id, 'nobody/nothing']) {
      try {
        resolveDefaultModelId(bad);
        expect.fail('should throw');
      } catch (err) {
        expect(err).toBeInstanceOf(DomainError);
        expect((err as DomainError).code).toBe('INVALID_DEFAULT_MODEL');
      }
    }
  });
});
