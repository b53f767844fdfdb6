import { AI_PROVIDER_NAMES } from '../../../domain/ai/ai-model.js';
import type { AiProvider } from '../../../application/ports/ai-provider.port.js';
import { AnthropicProvider } from './anthropic-provider.js';
import { GoogleProvider } from './google-provider.js';
import { OpenAiCompatibleProvider } from './openai-compatible-provider.js';

export interface AiProviderSettings {
  /** Per call (an idle timeout for streams). Default 60 s. */
  timeoutMs?: number;
  openrouter?: { apiKey?: string; baseUrl?: string; headers?: Record<string, string> };
  openai?: { apiKey?: string; baseUrl?: string };
  anthropic?: { apiKey?: string; baseUrl?: string; defaultMaxTokens?: number };
  google?: { apiKey?: string; baseUrl?: string };
  /** No key needed: the provider is configured when `baseUrl` (OLLAMA_BASE_URL, with `/v1`) is set. */
  ollama?: { baseUrl?: string; apiKey?: string };
}

/**
 * All five providers in `AI_PROVIDER_NAMES` order, configured or not (an unconfigured one
 * answers `isConfigured() === false`, shows `false` in health, and still serves BYOK calls).
 */
export function createAiProviders(settings: AiProviderSettings): AiProvider[] {
  const common = { timeoutMs: settings.timeoutMs };
  const byName: Record<(typeof AI_PROVIDER_NAMES)[number], AiProvider> = {
    openrouter: new OpenAiCompatibleProvider('openrouter', { ...common, ...settings.openrouter }),
    openai: new OpenAiCompatibleProvider('openai', { ...common, ...settings.openai }),
    anthropic: new AnthropicProvider({ ...common, ...settings.anthropic }),
    google: new GoogleProvider({ ...common, ...settings.google }),
    ollama: new OpenAiCompatibleProvider('ollama', { ...common, ...settings.ollama }),
  };
  return AI_PROVIDER_NAMES.map((name) => byName[name]);
}
