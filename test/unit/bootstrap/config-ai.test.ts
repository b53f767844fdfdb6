import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bootstrap/config.js';
import { ollamaOpenAiUrl } from '../../../src/bootstrap/register-ai.js';

const base = {
  NODE_ENV: 'test',
  JWT_SECRET: 'x'.repeat(40),
  COOKIE_SECRET: 'y'.repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

describe('AI configuration', () => {
  it('accepts either label model as DEFAULT_MODEL, and none', () => {
    expect(loadConfig({ ...base, DEFAULT_MODEL: 'openai/gpt-4o-mini' }).DEFAULT_MODEL).toBe('openai/gpt-4o-mini');
    expect(loadConfig({ ...base, DEFAULT_MODEL: 'meta-llama/llama-3.3-70b-instruct' }).DEFAULT_MODEL).toBe('meta-llama/llama-3.3-70b-instruct');
    expect(loadConfig(base).DEFAULT_MODEL).toBeUndefined();
  });

  it.each(['openai/gpt-4o', 'gpt-4o-mini', 'acme/model'])('stops on DEFAULT_MODEL=%s with one line naming the variable', (value) => {
    expect(() => loadConfig({ ...base, DEFAULT_MODEL: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DEFAULT_MODEL: value })).toThrow(/^Invalid configuration: DEFAULT_MODEL: must be one of [^\n]+$/);
  });

  it('RESERVATION_STALE_MS defaults to 10 minutes, or 5 × AI_TIMEOUT_MS when that is longer, and refuses less', () => {
    expect(loadConfig(base).RESERVATION_STALE_MS).toBe(600_000);
    expect(loadConfig({ ...base, AI_TIMEOUT_MS: '180000' }).RESERVATION_STALE_MS).toBe(900_000);
    expect(loadConfig({ ...base, RESERVATION_STALE_MS: '400000' }).RESERVATION_STALE_MS).toBe(400_000);
    expect(() => loadConfig({ ...base, RESERVATION_STALE_MS: '200000' })).toThrow(/^Invalid configuration: RESERVATION_STALE_MS: [^\n]+$/);
    expect(() => loadConfig({ ...base, RESERVATION_STALE_MS: 'soon' })).toThrow(/^Invalid configuration: RESERVATION_STALE_MS: [^\n]+$/);
  });

  it('adds /v1 to OLLAMA_BASE_URL unless it is there', () => {
    expect(ollamaOpenAiUrl('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/v1');
    expect(ollamaOpenAiUrl('http://127.0.0.1:11434/')).toBe('http://127.0.0.1:11434/v1');
    expect(ollamaOpenAiUrl('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1');
  });
});
