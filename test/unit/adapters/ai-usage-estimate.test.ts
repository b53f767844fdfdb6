import { describe, expect, it } from 'vitest';
import { estimateUsage } from '../../../src/adapters/outbound/ai/usage.js';
import { estimatePromptTokens, tokensForChars } from '../../../src/domain/ai/usage-estimate.js';

describe('usage estimated when a vendor sends no counts', () => {
  it('when the prompt is estimated, then it is the very estimate the reservation was made with (per-message tokens included)', () => {
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'What is the capital of France?' },
    ];
    const usage = estimateUsage(messages, 41);
    expect(usage.promptTokens).toBe(estimatePromptTokens(messages));
    expect(usage.promptTokens).toBe(3 + 4 + 8 + 4);
    expect(usage.completionTokens).toBe(tokensForChars(41));
    expect(usage.totalTokens).toBe(usage.promptTokens + usage.completionTokens);
  });
});
