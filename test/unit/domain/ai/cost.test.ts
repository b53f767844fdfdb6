import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../../../src/domain/ai/cost.js';
import { findModel } from '../../../../src/domain/ai/model-catalog.js';

describe('estimateCost', () => {
  it('prices tokens per million, input and output apart', () => {
    expect(estimateCost({ inputCost: 3, outputCost: 15 }, 1_000_000, 0)).toBe(3);
    expect(estimateCost({ inputCost: 3, outputCost: 15 }, 0, 1_000_000)).toBe(15);
    expect(estimateCost({ inputCost: 3, outputCost: 15 }, 2_000, 500)).toBe(0.0135);
  });

  it('rounds to 6 decimals without float noise', () => {
    expect(estimateCost({ inputCost: 0.15, outputCost: 0.6 }, 1000, 1000)).toBe(0.00075);
    expect(estimateCost({ inputCost: 0.1, outputCost: 0.4 }, 1, 1)).toBe(0.000001);
    expect(estimateCost({ inputCost: 0.1, outputCost: 0 }, 3, 0)).toBe(0);
  });

  it('costs nothing for the local model and for zero tokens', () => {
    expect(estimateCost(findModel('ollama/llama3.2')!, 50_000, 50_000)).toBe(0);
    expect(estimateCost(findModel('openai/gpt-4o')!, 0, 0)).toBe(0);
  });

  it('rejects negative or non-finite token counts', () => {
    const model = { inputCost: 1, outputCost: 1 };
    expect(() => estimateCost(model, -1, 0)).toThrow(expect.objectContaining({ code: 'INVALID_TOKEN_COUNT' }));
    expect(() => estimateCost(model, 0, Number.NaN)).toThrow(expect.objectContaining({ code: 'INVALID_TOKEN_COUNT' }));
    expect(() => estimateCost(model, Number.POSITIVE_INFINITY, 0)).toThrow(expect.objectContaining({ code: 'INVALID_TOKEN_COUNT' }));
  });
});
