import { randomUUID } from 'node:crypto';
import type { ChatMessage, TokenUsage } from '../../../application/ports/ai-provider.port.js';
import { estimatePromptTokens, tokensForChars } from '../../../domain/ai/usage-estimate.js';

/** Usage from a vendor's counts; undefined when it sent none, so the caller can estimate. */
export function usageFrom(prompt: number | undefined, completion: number | undefined, total?: number): TokenUsage | undefined {
  if (prompt === undefined && completion === undefined) return undefined;
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  return { promptTokens, completionTokens, totalTokens: total ?? promptTokens + completionTokens };
}

/**
 * When a vendor sends no counts (some Ollama versions in streams) metering still needs a number:
 * the domain's estimate, the same one the reservation was made with.
 */
export function estimateUsage(messages: readonly ChatMessage[], completionChars: number): TokenUsage {
  const promptTokens = estimatePromptTokens(messages);
  const completionTokens = tokensForChars(completionChars);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

export const generatedId = (): string => `gen-${randomUUID()}`;
