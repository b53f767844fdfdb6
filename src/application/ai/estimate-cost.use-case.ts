import { injectable } from 'tsyringe';
import { estimateCost } from '../../domain/ai/cost.js';
import { requireModel } from '../../domain/ai/model-catalog.js';

export interface CostEstimate {
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD, 6 decimals. */
  readonly estimatedCost: number;
}

/** USD cost of a call at the model's list prices. Throws UnknownModelError (400) and InvalidTokenCountError (400). */
@injectable()
export class EstimateCost {
  execute(input: { model: string; inputTokens: number; outputTokens: number }): CostEstimate {
    const model = requireModel(input.model);
    return { ...input, model: model.id, estimatedCost: estimateCost(model, input.inputTokens, input.outputTokens) };
  }
}
