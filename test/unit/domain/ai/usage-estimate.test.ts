import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPLETION_RESERVE, estimatePromptTokens, reservationUnits } from '../../../../src/domain/ai/usage-estimate.js';

describe('chat reservation estimate', () => {
  it('counts 4 characters a token plus 4 tokens a message', () => {
    expect(estimatePromptTokens([{ content: 'abcd' }, { content: 'abcde' }])).toBe(1 + 4 + 2 + 4);
  });

  it('reserves prompt plus max_tokens in units of 1,000 tokens, rounded up', () => {
    expect(reservationUnits([{ content: 'x'.repeat(3984) }], 1000, 128_000)).toBe(2); // 996 + 4 + 1000
    expect(reservationUnits([{ content: 'x'.repeat(3984) }], 1001, 128_000)).toBe(3);
    expect(reservationUnits([{ content: 'hi' }], 1, 128_000)).toBe(1);
  });

  it('reserves the default completion when max_tokens is absent', () => {
    expect(reservationUnits([{ content: 'hi' }], undefined, 128_000)).toBe(Math.ceil((5 + DEFAULT_COMPLETION_RESERVE) / 1000));
  });

  it('caps the completion part at what the context window leaves', () => {
    expect(reservationUnits([{ content: 'hi' }], 900_000, 8_000)).toBe(8);
  });
});
