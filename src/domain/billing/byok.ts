/**
 * Bring your own key: the AI providers a user may store a key for. `ollama` is absent on purpose:
 * it is reached by URL, not by key. The names are the AI layer's provider names.
 */
export const BYOK_PROVIDERS = ['openrouter', 'openai', 'anthropic', 'google'] as const;
export type ByokProvider = (typeof BYOK_PROVIDERS)[number];

export const isByokProvider = (v: unknown): v is ByokProvider =>
  typeof v === 'string' && (BYOK_PROVIDERS as readonly string[]).includes(v);

/** Length bounds of a provider key as accepted from a user: long enough to mean something, short enough to store. */
export const BYOK_KEY_MIN_LENGTH = 8;
export const BYOK_KEY_MAX_LENGTH = 512;
