import type { AiModel } from './ai-model.js';
import { InvalidTokenCountError } from './ai.errors.js';

/** Six decimals: a millionth of a dollar, the price of one token of the cheapest paid model. */
const PRECISION = 1e6;

/**
 * Estimated USD cost of a call: tokens times the model's per-1M-token prices, rounded to
 * 6 decimals. Token counts must be finite and at least 0 (fractions are accepted as given).
 */
export function estimateCost(
  model: Pick<AiModel, 'inputCost' | 'outputCost'>,
  inputTokens: number,
  outputTokens: number,
): number {
  if (!Number.isFinite(inputTokens) || inputTokens < 0) throw new InvalidTokenCountError('inputTokens');
  if (!Number.isFinite(outputTokens) || outputTokens < 0) throw new InvalidTokenCountError('outputTokens');
  const usd = (inputTokens * model.inputCost + outputTokens * model.outputCost) / 1_000_000;
  return Math.round(usd * PRECISION) / PRECISION;
}
