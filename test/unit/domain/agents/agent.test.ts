import { describe, expect, it } from 'vitest';
import { AGENT_CONFIG_MAX_BYTES, configBytes, configFits, provisionModels } from '../../../../src/domain/agents/agent.js';
import { LABEL_MODEL_IDS } from '../../../../src/domain/ai/model-catalog.js';

describe('provision models (CONTRACT.md 7)', () => {
  it('are the default first, the other label model, then custom, whichever label model is the default', () => {
    const [a, b] = LABEL_MODEL_IDS;
    expect(provisionModels(a)).toEqual([a, b, 'custom']);
    expect(provisionModels(b)).toEqual([b, a, 'custom']);
  });
});

describe('agent config', () => {
  it('is a JSON object of at most 64 KB of UTF-8 JSON text', () => {
    expect(configFits({})).toBe(true);
    expect(configFits([])).toBe(false);
    expect(configFits(null)).toBe(false);
    expect(configFits('x')).toBe(false);
    const exact = { k: 'x'.repeat(AGENT_CONFIG_MAX_BYTES - 8) };
    expect(configBytes(exact)).toBe(AGENT_CONFIG_MAX_BYTES);
    expect(configFits(exact)).toBe(true);
    expect(configFits({ k: 'x'.repeat(AGENT_CONFIG_MAX_BYTES - 7) })).toBe(false);
    // bytes, not characters: a 3-byte character counts three times
    expect(configFits({ k: '€'.repeat(Math.floor((AGENT_CONFIG_MAX_BYTES - 8) / 3) + 1) })).toBe(false);
  });
});
