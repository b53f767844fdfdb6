import { unitsForTokens } from '../billing/units.js';

/**
 * What a chat call reserves before it is sent (CONTRACT.md section 6): the prompt's size in
 * tokens, estimated, plus the completion it may produce. The reservation is settled to the
 * provider's real counts afterwards, so the estimate only has to be of the right size.
 */

/** About 4 characters a token for English text, the usual rule of thumb. */
export const CHARS_PER_TOKEN = 4;
/** Role and separator tokens the vendors add around each message. */
export const TOKENS_PER_MESSAGE = 4;
/** Completion tokens reserved when the request sets no `max_tokens`. */
export const DEFAULT_COMPLETION_RESERVE = 1024;

export const tokensForChars = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

export function estimatePromptTokens(messages: readonly { readonly content: string }[]): number {
  return messages.reduce((sum, m) => sum + tokensForChars(m.content.length) + TOKENS_PER_MESSAGE, 0);
}

/**
 * Units to reserve: prompt estimate plus `maxTokens` (or the default reserve), the completion
 * part capped by what the model's context window leaves after the prompt.
 */
export function reservationUnits(
  messages: readonly { readonly content: string }[],
  maxTokens: number | undefined,
  contextWindow: number,
): number {
  const prompt = estimatePromptTokens(messages);
  const completion = Math.min(maxTokens ?? DEFAULT_COMPLETION_RESERVE, Math.max(0, contextWindow - prompt));
  return unitsForTokens(prompt + completion);
}
