import type { InjectionToken } from 'tsyringe';
import type { LabelModelId } from '../../domain/ai/model-catalog.js';

/** The slice of configuration the AI use cases and routes read. */
export interface AiSettings {
  /** `DEFAULT_MODEL`, validated: leads `general` selection. */
  readonly defaultModelId: LabelModelId;
  /** `RATE_LIMIT_CHAT`: chat requests per caller per minute. */
  readonly chatRateLimitPerMinute: number;
}

export const AI_SETTINGS: InjectionToken<AiSettings> = Symbol('AiSettings');
