import { chatLevelRank, type ChatLevel } from '../billing/plan-catalogs.js';
import type { AiModel } from './ai-model.js';
import { InvalidDefaultModelError, UnknownModelError } from './ai.errors.js';

/**
 * The model catalog as data. Levels nest (CONTRACT section 5): label sees exactly 2 models, solo
 * the label set plus 2, collective the solo set plus 2, network all of them. A model's level is
 * its `minLevel`; the tests hold the counts. Costs are USD per 1M tokens (list prices).
 */
export const MODEL_CATALOG: readonly AiModel[] = Object.freeze([
  // label: the platform default (through the router-type provider) and one direct vendor model
  {
    id: 'meta-llama/llama-3.3-70b-instruct', name: 'Llama 3.3 70B Instruct', provider: 'openrouter',
    description: 'Open-weight general model served through OpenRouter; the platform default.',
    tags: ['general', 'cheap', 'code'], inputCost: 0.12, outputCost: 0.3, contextWindow: 131_072, minLevel: 'label',
  },
  {
    id: 'openai/gpt-4o-mini', name: 'GPT-4o mini', provider: 'openai',
    description: 'Small, fast OpenAI model with image input.',
    tags: ['general', 'fast', 'cheap', 'vision', 'code'], inputCost: 0.15, outputCost: 0.6, contextWindow: 128_000, minLevel: 'label',
  },
  // solo: plus 2
  {
    id: 'google/gemini-2.0-flash', name: 'Gemini 2.0 Flash', provider: 'google',
    description: 'Fast Google model with a 1M-token context.',
    tags: ['general', 'fast', 'cheap', 'vision', 'long-context'], inputCost: 0.1, outputCost: 0.4, contextWindow: 1_048_576, minLevel: 'solo',
  },
  {
    id: 'ollama/llama3.2', name: 'Llama 3.2 (local)', provider: 'ollama',
    description: 'Small model running on the local Ollama server; no per-token cost.',
    tags: ['general', 'fast', 'cheap', 'local'], inputCost: 0, outputCost: 0, contextWindow: 131_072, minLevel: 'solo',
  },
  // collective: plus 2
  {
    id: 'anthropic/claude-3-5-haiku-20241022', name: 'Claude 3.5 Haiku', provider: 'anthropic',
    description: 'Fast Anthropic model, good at code and instructions.',
    tags: ['general', 'fast', 'code'], inputCost: 0.8, outputCost: 4, contextWindow: 200_000, minLevel: 'collective',
  },
  {
    id: 'deepseek/deepseek-r1', name: 'DeepSeek R1', provider: 'openrouter',
    description: 'Open reasoning model served through OpenRouter.',
    tags: ['general', 'reasoning', 'code'], inputCost: 0.55, outputCost: 2.19, contextWindow: 163_840, minLevel: 'collective',
  },
  // network: everything else
  {
    id: 'openai/gpt-4o', name: 'GPT-4o', provider: 'openai',
    description: 'OpenAI flagship multimodal model.',
    tags: ['general', 'vision', 'code'], inputCost: 2.5, outputCost: 10, contextWindow: 128_000, minLevel: 'network',
  },
  {
    id: 'openai/gpt-4.1', name: 'GPT-4.1', provider: 'openai',
    description: 'OpenAI model tuned for code and long inputs (1M tokens).',
    tags: ['general', 'code', 'long-context', 'vision'], inputCost: 2, outputCost: 8, contextWindow: 1_047_576, minLevel: 'network',
  },
  {
    id: 'anthropic/claude-sonnet-4-20250514', name: 'Claude Sonnet 4', provider: 'anthropic',
    description: 'Anthropic model for hard code and reasoning tasks.',
    tags: ['general', 'code', 'reasoning', 'vision', 'long-context'], inputCost: 3, outputCost: 15, contextWindow: 200_000, minLevel: 'network',
  },
  {
    id: 'google/gemini-2.5-pro', name: 'Gemini 2.5 Pro', provider: 'google',
    description: 'Google reasoning model with a 1M-token context.',
    tags: ['general', 'reasoning', 'long-context', 'vision', 'code'], inputCost: 1.25, outputCost: 10, contextWindow: 1_048_576, minLevel: 'network',
  },
] satisfies AiModel[]);

/**
 * Catalog models that cannot call tools: DeepSeek R1 answers in text only. Every other model takes
 * OpenAI-style function tools through its adapter.
 */
const WITHOUT_TOOLS: ReadonlySet<string> = new Set(['deepseek/deepseek-r1']);

/** Whether the model can be offered tools. */
export const callsTools = (model: AiModel): boolean => !WITHOUT_TOOLS.has(model.id);

/** The two models of the label level; `DEFAULT_MODEL` may name either. */
export const LABEL_MODEL_IDS = ['meta-llama/llama-3.3-70b-instruct', 'openai/gpt-4o-mini'] as const;
export type LabelModelId = (typeof LABEL_MODEL_IDS)[number];
/** The platform default model when `DEFAULT_MODEL` is unset. */
export const DEFAULT_MODEL_ID: LabelModelId = 'meta-llama/llama-3.3-70b-instruct';

const BY_ID: ReadonlyMap<string, AiModel> = new Map(MODEL_CATALOG.map((m) => [m.id, m]));

export const findModel = (id: string): AiModel | undefined => BY_ID.get(id);

/** Like `findModel`, for callers where an unknown id is the client's mistake. */
export function requireModel(id: string): AiModel {
  const model = BY_ID.get(id);
  if (!model) throw new UnknownModelError(id);
  return model;
}

/** Every model the level may use, in catalog order (cheapest levels first). */
export const modelsForLevel = (level: ChatLevel): readonly AiModel[] =>
  MODEL_CATALOG.filter((m) => chatLevelRank(m.minLevel) <= chatLevelRank(level));

/** False for ids outside the catalog as well as for models above the level. */
export function isModelAllowed(id: string, level: ChatLevel): boolean {
  const model = BY_ID.get(id);
  return model !== undefined && chatLevelRank(model.minLevel) <= chatLevelRank(level);
}

export const isLabelModelId = (v: unknown): v is LabelModelId =>
  typeof v === 'string' && (LABEL_MODEL_IDS as readonly string[]).includes(v);

/**
 * Validates the configured `DEFAULT_MODEL`: unset or blank means `DEFAULT_MODEL_ID`; anything
 * other than a label model is a configuration error (the default must be usable by every plan).
 */
export function resolveDefaultModelId(configured: string | undefined): LabelModelId {
  const value = configured?.trim();
  if (!value) return DEFAULT_MODEL_ID;
  if (!isLabelModelId(value)) throw new InvalidDefaultModelError(value, LABEL_MODEL_IDS);
  return value;
}
