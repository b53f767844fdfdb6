import type { DependencyContainer } from 'tsyringe';
import { createAiProviders } from '../adapters/outbound/ai/create-ai-providers.js';
import { OpenAiCompatibleProvider } from '../adapters/outbound/ai/openai-compatible-provider.js';
import { AI_SETTINGS } from '../application/ports/ai-settings.port.js';
import { AuthorizeChat } from '../application/ai/authorize-chat.use-case.js';
import { AuthorizeBestPlanChat } from '../application/ai/authorize-best-plan-chat.use-case.js';
import { ChatMetering } from '../application/ai/chat-metering.js';
import { ChatRouter } from '../application/ai/chat-router.js';
import { CIRCUIT_BREAKER_SETTINGS, DEFAULT_BREAKER_SETTINGS } from '../application/ports/circuit-breaker-settings.port.js';
import { CircuitBreakers } from '../application/ai/circuit-breaker.js';
import { CompleteChat } from '../application/ai/complete-chat.use-case.js';
import { EstimateCost } from '../application/ai/estimate-cost.use-case.js';
import { ListModels } from '../application/ai/list-models.use-case.js';
import { DEFAULT_PROVIDER_HEALTH_SETTINGS, PROVIDER_HEALTH_SETTINGS } from '../application/ports/provider-health-settings.port.js';
import { ProviderHealth } from '../application/ai/provider-health.js';
import { SelectModel } from '../application/ai/select-model.use-case.js';
import { StreamChat } from '../application/ai/stream-chat.use-case.js';
import { SynthesizeSpeech } from '../application/ai/synthesize-speech.use-case.js';
import { TranscribeAudio } from '../application/ai/transcribe-audio.use-case.js';
import { ReadByokKeys } from '../application/billing/read-byok-keys.use-case.js';
import { AI_PROVIDERS } from '../application/ports/ai-provider.port.js';
import { AUDIO_PROVIDER } from '../application/ports/audio-provider.port.js';
import { BYOK_KEY_READER } from '../application/ports/byok-key-reader.port.js';
import { resolveDefaultModelId } from '../domain/ai/model-catalog.js';
import type { Config } from './config.js';

/**
 * The AI layer: the five providers from configuration (a provider without a key, or Ollama
 * without a URL, is registered unconfigured: it answers BYOK calls and shows false in health),
 * one circuit breaker per provider and the health cache as process singletons, and the use cases.
 * Needs CLOCK (container.ts) and registerBilling first: chat meters through USAGE_METER and reads keys with ReadByokKeys.
 */
export function registerAi(c: DependencyContainer, config: Config): void {
  const providers = createAiProviders({
    timeoutMs: config.AI_TIMEOUT_MS,
    openrouter: { apiKey: config.OPENROUTER_API_KEY, baseUrl: config.OPENROUTER_BASE_URL, headers: { 'HTTP-Referer': config.APP_URL, 'X-Title': 'Agent Host' } },
    openai: { apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL },
    anthropic: { apiKey: config.ANTHROPIC_API_KEY, baseUrl: config.ANTHROPIC_BASE_URL },
    google: { apiKey: config.GOOGLE_API_KEY, baseUrl: config.GOOGLE_BASE_URL },
    ollama: { baseUrl: config.OLLAMA_BASE_URL && ollamaOpenAiUrl(config.OLLAMA_BASE_URL) },
  });
  c.register(AI_PROVIDERS, { useValue: providers });
  // the gateway's tts and stt: OpenAI's audio endpoints, on OPENAI_API_KEY and OPENAI_BASE_URL (OpenRouter has none)
  c.register(AUDIO_PROVIDER, { useValue: providers.find((p): p is OpenAiCompatibleProvider => p.name === 'openai' && p instanceof OpenAiCompatibleProvider)! });
  c.register(CIRCUIT_BREAKER_SETTINGS, { useValue: DEFAULT_BREAKER_SETTINGS });
  c.register(PROVIDER_HEALTH_SETTINGS, { useValue: { ...DEFAULT_PROVIDER_HEALTH_SETTINGS, ttlMs: config.AI_HEALTH_TTL_MS } });
  // BYOK keys are billing's: registerBilling provides ReadByokKeys, and the usage meter
  c.register(BYOK_KEY_READER, { useToken: ReadByokKeys });
  c.register(AI_SETTINGS, { useValue: { defaultModelId: resolveDefaultModelId(config.DEFAULT_MODEL), chatRateLimitPerMinute: config.RATE_LIMIT_CHAT } });
  for (const singleton of [CircuitBreakers, ProviderHealth, ChatRouter, ChatMetering, ListModels, SelectModel, EstimateCost, AuthorizeChat, CompleteChat, StreamChat, SynthesizeSpeech, TranscribeAudio, AuthorizeBestPlanChat]) {
    c.registerSingleton(singleton as never);
  }
}

/** OLLAMA_BASE_URL is Ollama's address (`http://localhost:11434`); its OpenAI-compatible API is under `/v1`. */
export function ollamaOpenAiUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
}
