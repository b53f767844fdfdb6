import { randomUUID } from 'node:crypto';
import type { ChatMessage, TokenUsage } from '../../../application/ports/ai-provider.port.js';

/** Usage from a vendor's counts; undefined when it sent none, so the caller can estimate. */
export function usageFrom(prompt: number | undefined, completion: number | undefined, total?: number): TokenUsage | undefined {
  if (prompt === undefined && completion === undefined) return undefined;
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  return { promptTokens, completionTokens, totalTokens: total ?? promptTokens + completionTokens };
}

/**
 * When a vendor sends no counts (some Ollama versions in streams) metering still needs a number:
 * about 4 characters a token, the usual rule of thumb for English text.
 */
export function estimateUsage(messages: readonly ChatMessage[], completionChars: number): TokenUsage {
  const promptChars = messages.reduce((sum, m) => sum + m.content.length, 0);
  const promptTokens = Math.ceil(promptChars / 4);
  const completionTokens = Math.ceil(completionChars / 4);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

export const generatedId = (): string => `gen-${randomUUID()}`;
