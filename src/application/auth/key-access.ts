import { keyAllowsModel } from '../../domain/accounts/api-key-limits.js';
import { actingKey, type ActingKey, type Actor } from './actor.js';
import { KeyModelNotAllowedError } from './auth.errors.js';

/**
 * The models allowlist of the caller's API key (decision 0425): throws KeyModelNotAllowedError
 * (403 KEY_MODEL_NOT_ALLOWED) when the caller acts through a key (itself, or a JWT issued from
 * it) whose `models` do not name `modelId`; an agent is named `agent/<agentId>`. Call it before
 * anything is reserved or any provider is called. A session, or a key without a list, may call
 * whatever its owner may.
 */
export function assertKeyMayUse(actor: Pick<Actor, 'credential'>, modelId: string): void {
  assertMayUse(actingKey(actor.credential), modelId);
}

function assertMayUse(key: ActingKey | null | undefined, modelId: string): void {
  if (key && !keyAllowsModel(key.limits, modelId)) throw new KeyModelNotAllowedError(modelId);
}

/**
 * A chat call's candidate models (the asked or selected one first, then its fallbacks) narrowed
 * to those `key` may call: a model asked for by name must itself be allowed (403), and fallbacks
 * outside the list are dropped; with no model asked for, the first allowed candidate is chosen,
 * and a 403 names the selected model when none is. Unchanged without a key or its list.
 */
export function keyCandidates<M extends { readonly id: string }>(key: ActingKey | null | undefined, candidates: readonly M[], explicitModel: boolean): readonly M[] {
  if (!key || key.limits.models === null) return candidates;
  if (explicitModel) assertMayUse(key, candidates[0]!.id);
  const allowed = candidates.filter((m) => keyAllowsModel(key.limits, m.id));
  if (allowed.length === 0) throw new KeyModelNotAllowedError(candidates[0]!.id);
  return allowed;
}
