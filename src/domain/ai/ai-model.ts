import type { ChatLevel } from '../billing/plan-catalogs.js';

/** The five AI providers the service can talk to. `openrouter` is the router-type default. */
export const AI_PROVIDER_NAMES = ['openrouter', 'openai', 'anthropic', 'google', 'ollama'] as const;
export type AiProviderName = (typeof AI_PROVIDER_NAMES)[number];

export const isAiProviderName = (v: unknown): v is AiProviderName =>
  typeof v === 'string' && (AI_PROVIDER_NAMES as readonly string[]).includes(v);

/** What a model is good at; task types select models by these. */
export const MODEL_TAGS = ['general', 'code', 'fast', 'cheap', 'long-context', 'reasoning', 'vision', 'local'] as const;
export type ModelTag = (typeof MODEL_TAGS)[number];

/**
 * One entry of the model catalog. `id` is `<vendor>/<model>` and is the only name the core uses;
 * each adapter maps it to the name its provider expects (see the adapters' docs).
 */
export interface AiModel {
  readonly id: string;
  readonly name: string;
  readonly provider: AiProviderName;
  readonly description: string;
  readonly tags: readonly ModelTag[];
  /** USD per 1M prompt tokens. */
  readonly inputCost: number;
  /** USD per 1M completion tokens. */
  readonly outputCost: number;
  /** Tokens the model accepts in one request (prompt plus completion). */
  readonly contextWindow: number;
  /** The lowest chat level allowed to use the model; every higher level may use it too. */
  readonly minLevel: ChatLevel;
}
