import { findModel } from '../ai/model-catalog.js';
import { isUuid } from '../shared/ids.js';

/** Limits an owner sets on an API key they hand out (decision 0425); null: no such limit. */
export interface ApiKeyLimits {
  /** Units the key may spend a UTC day, inside the owner's own (the owner's units pay for them). */
  readonly dailyUnits: number | null;
  /** The model ids the key may call; an agent counts as `agent/<agentId>`. */
  readonly models: readonly string[] | null;
  /** From this moment the key is an invalid credential, as a deleted one is. */
  readonly expiresAt: Date | null;
  /** Requests a minute, counted per key. */
  readonly rateLimit: number | null;
}

export const NO_KEY_LIMITS: ApiKeyLimits = Object.freeze({ dailyUnits: null, models: null, expiresAt: null, rateLimit: null });

/** The largest values accepted (a day's units fit the counters' integers many times over). */
export const API_KEY_LIMIT_BOUNDS = Object.freeze({ dailyUnits: 100_000_000, models: 100, rateLimit: 100_000 });

const AGENT_MODEL = /^agent\/(.+)$/;

/** The model id an agent is called by (the OpenAI-compatible API lists agents as models). */
export const agentModelId = (agentId: string): string => `agent/${agentId}`;

/** A model id a key may name: one of the catalog's, or `agent/<uuid>`. */
export function isKeyModelId(id: string): boolean {
  const agent = AGENT_MODEL.exec(id);
  return agent ? isUuid(agent[1]) : findModel(id) !== undefined;
}

/** Whether a key with these limits may call `modelId` (no list: any model its owner may). */
export const keyAllowsModel = (limits: Pick<ApiKeyLimits, 'models'>, modelId: string): boolean => limits.models === null || limits.models.includes(modelId);

/** Whether the key has expired at `now`. */
export const keyExpired = (limits: Pick<ApiKeyLimits, 'expiresAt'>, now: Date): boolean => limits.expiresAt !== null && limits.expiresAt.getTime() <= now.getTime();

/**
 * What is wrong with limits being set at `now` (the edge checked their types and bounds), or null:
 * a model id the key could never call, or an expiry that is not in the future.
 */
export function keyLimitsProblem(limits: Partial<ApiKeyLimits>, now: Date): { field: keyof ApiKeyLimits; message: string } | null {
  const unknown = limits.models?.find((m) => !isKeyModelId(m));
  if (unknown !== undefined) return { field: 'models', message: `${JSON.stringify(unknown)} is neither a model id nor agent/<agentId>` };
  if (limits.expiresAt && limits.expiresAt.getTime() <= now.getTime()) return { field: 'expiresAt', message: 'must be in the future' };
  return null;
}
