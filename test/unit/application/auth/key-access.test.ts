import { describe, expect, it } from 'vitest';
import type { Actor } from '../../../../src/application/auth/actor.js';
import { assertKeyMayUse, keyCandidates } from '../../../../src/application/auth/key-access.js';
import { NO_KEY_LIMITS } from '../../../../src/domain/accounts/api-key-limits.js';
import type { UserId } from '../../../../src/domain/shared/ids.js';

const AGENT = 'agent/0b7d4bd6-64f3-4a35-9d5c-8f6c3f1e8a11';
const base = { userId: 'u' as UserId, email: 'a@x.test', emailVerified: true, role: 'user' as const };
const session: Actor = { ...base, credential: { kind: 'session', sessionId: 's' } };
const keyWith = (models: string[] | null): Actor => ({ ...base, credential: { kind: 'api-key', keyId: 'k', limits: { ...NO_KEY_LIMITS, models } } });
const jwtFrom = (models: string[] | null): Actor => ({ ...base, credential: { kind: 'jwt', origin: { kind: 'api-key', keyId: 'k', limits: { ...NO_KEY_LIMITS, models } } } });
const m = (id: string) => ({ id });

describe("an API key's models list (decision 0425)", () => {
  it('when the caller has a session or a key without a list, then any model and any agent', () => {
    for (const actor of [session, keyWith(null), jwtFrom(null)]) {
      expect(() => assertKeyMayUse(actor, 'openai/gpt-4o-mini')).not.toThrow();
      expect(() => assertKeyMayUse(actor, AGENT)).not.toThrow();
    }
  });

  it('when the key, or a JWT issued from it, has a list, then only what it names: 403 KEY_MODEL_NOT_ALLOWED naming the model otherwise', () => {
    for (const actor of [keyWith([AGENT]), jwtFrom([AGENT])]) {
      expect(() => assertKeyMayUse(actor, AGENT)).not.toThrow();
      expect(() => assertKeyMayUse(actor, 'openai/gpt-4o-mini')).toThrow(expect.objectContaining({ code: 'KEY_MODEL_NOT_ALLOWED', details: { model: 'openai/gpt-4o-mini' } }));
      expect(() => assertKeyMayUse(actor, 'agent/another')).toThrow(expect.objectContaining({ code: 'KEY_MODEL_NOT_ALLOWED' }));
    }
  });

  it('narrows a call\'s candidates: an asked model must be listed; fallbacks and auto-selection keep to the list', () => {
    const key = { id: 'k', limits: { ...NO_KEY_LIMITS, models: ['b', 'c'] } };
    const candidates = [m('a'), m('b'), m('c')];
    expect(keyCandidates(null, candidates, true)).toBe(candidates);
    expect(keyCandidates({ id: 'k', limits: NO_KEY_LIMITS }, candidates, true)).toBe(candidates);
    expect(() => keyCandidates(key, candidates, true)).toThrow(expect.objectContaining({ code: 'KEY_MODEL_NOT_ALLOWED', details: { model: 'a' } }));
    expect(keyCandidates(key, [m('b'), m('a'), m('c')], true)).toEqual([m('b'), m('c')]);
    expect(keyCandidates(key, candidates, false)).toEqual([m('b'), m('c')]);
    expect(() => keyCandidates(key, [m('a'), m('d')], false)).toThrow(expect.objectContaining({ code: 'KEY_MODEL_NOT_ALLOWED', details: { model: 'a' } }));
  });
});
