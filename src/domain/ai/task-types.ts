import type { AiModel, ModelTag } from './ai-model.js';
import { UnknownTaskTypeError } from './ai.errors.js';
import { DEFAULT_MODEL_ID } from './model-catalog.js';

export const TASK_TYPES = ['general', 'code', 'fast', 'cheap', 'long-context', 'reasoning', 'vision'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const DEFAULT_TASK_TYPE: TaskType = 'general';

export const isTaskType = (v: unknown): v is TaskType =>
  typeof v === 'string' && (TASK_TYPES as readonly string[]).includes(v);

interface TaskRule {
  /** Only models carrying this tag serve the task type, so fallbacks stay of the same kind. */
  readonly tag: ModelTag;
  /** Models in this order come first; the remaining tagged models follow, cheapest first. */
  readonly prefer: readonly string[];
}

/**
 * Selection rules as data. A preference list naming a model a level may not use is harmless:
 * selection only ever orders the models it is given, never adds one.
 */
export const TASK_RULES: Readonly<Record<TaskType, TaskRule>> = Object.freeze({
  general: {
    tag: 'general',
    // the configured default goes in front of this list at selection time
    prefer: ['openai/gpt-4o-mini', 'google/gemini-2.0-flash', 'anthropic/claude-3-5-haiku-20241022', 'openai/gpt-4o', 'anthropic/claude-sonnet-4-20250514'],
  },
  code: {
    tag: 'code',
    prefer: ['anthropic/claude-sonnet-4-20250514', 'openai/gpt-4.1', 'google/gemini-2.5-pro', 'deepseek/deepseek-r1', 'anthropic/claude-3-5-haiku-20241022', 'openai/gpt-4o-mini'],
  },
  fast: { tag: 'fast', prefer: ['google/gemini-2.0-flash', 'openai/gpt-4o-mini', 'anthropic/claude-3-5-haiku-20241022'] },
  // no preference: cheapest first, which puts the local model (cost 0) in front
  cheap: { tag: 'cheap', prefer: [] },
  'long-context': { tag: 'long-context', prefer: ['google/gemini-2.5-pro', 'openai/gpt-4.1', 'google/gemini-2.0-flash'] },
  reasoning: { tag: 'reasoning', prefer: ['anthropic/claude-sonnet-4-20250514', 'google/gemini-2.5-pro', 'deepseek/deepseek-r1'] },
  vision: { tag: 'vision', prefer: ['openai/gpt-4o', 'google/gemini-2.5-pro', 'anthropic/claude-sonnet-4-20250514', 'openai/gpt-4o-mini'] },
});

const blendedCost = (m: AiModel): number => m.inputCost + m.outputCost;

/**
 * Orders the candidates for a task type: the first is the choice, the rest are fallbacks of
 * the same task type. Only models from `allowedModels` appear, so a fallback can never exceed the
 * caller's level. An empty result means no allowed model serves the task type (the route's 404).
 * For `general`, `defaultModelId` (the configured `DEFAULT_MODEL`) leads when it is allowed.
 */
export function selectModels(taskType: string, allowedModels: readonly AiModel[], defaultModelId: string = DEFAULT_MODEL_ID): AiModel[] {
  if (!isTaskType(taskType)) throw new UnknownTaskTypeError(taskType, TASK_TYPES);
  const rule = TASK_RULES[taskType];
  const prefer = taskType === 'general' ? [defaultModelId, ...rule.prefer] : rule.prefer;
  const rank = (m: AiModel): number => {
    const i = prefer.indexOf(m.id);
    return i === -1 ? prefer.length : i;
  };
  return allowedModels
    .filter((m) => m.tags.includes(rule.tag))
    .map((m, index) => ({ m, index }))
    // ties (outside the preference list) by cost, then catalog order, so the result is stable
    .sort((a, b) => rank(a.m) - rank(b.m) || blendedCost(a.m) - blendedCost(b.m) || a.index - b.index)
    .map(({ m }) => m);
}
