import { describe, expect, it } from 'vitest';
import { chooseLogFormat } from '../../../src/bootstrap/logger.js';

describe('log format', () => {
  it.each([
    ['development', true, 'pretty'],
    ['development', false, 'json'],
    ['production', true, 'json'],
    ['production', false, 'json'],
    ['test', true, 'json'],
    ['test', false, 'json'],
  ] as const)('when NODE_ENV=%s and stdout is a terminal: %s, then %s', (nodeEnv, stdoutIsTTY, format) => {
    expect(chooseLogFormat({ nodeEnv, stdoutIsTTY })).toBe(format);
  });
});
