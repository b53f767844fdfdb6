import { LABEL_MODEL_IDS, type LabelModelId } from '../ai/model-catalog.js';
import type { AgentStatus } from './agent-status.js';

/** Provisioning tiers (CONTRACT.md section 5): recorded on the agent, never a limit. */
export const PROVISION_TIERS = ['starter', 'pro', 'enterprise'] as const;
export type ProvisionTier = (typeof PROVISION_TIERS)[number];

export const AGENT_NAME_MAX = 64;
/** An agent's config is a JSON object of at most 64 KB: bytes of its UTF-8 JSON text (CONTRACT.md section 7). */
export const AGENT_CONFIG_MAX_BYTES = 65_536;

export type AgentConfigObject = Record<string, unknown>;

export interface AgentVerification {
  verified: boolean;
  verificationType: string | null;
  attestationUid: string | null;
  verifiedAt: Date | null;
}

export interface Agent extends AgentVerification {
  id: string;
  userId: string;
  name: string;
  model: string;
  tier: ProvisionTier | null;
  status: AgentStatus;
  config: AgentConfigObject;
  createdAt: Date;
  updatedAt: Date;
}

/** The bytes of a config as stored and measured. */
export const configBytes = (config: AgentConfigObject): number => Buffer.byteLength(JSON.stringify(config), 'utf8');

export const isAgentConfigObject = (v: unknown): v is AgentConfigObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A config fits when it is a plain JSON object within AGENT_CONFIG_MAX_BYTES. */
export const configFits = (v: unknown): v is AgentConfigObject => isAgentConfigObject(v) && configBytes(v) <= AGENT_CONFIG_MAX_BYTES;

/** `custom`: the owner's own model choice, resolved when the agent answers. */
export const CUSTOM_MODEL = 'custom';

/**
 * The models an agent may be provisioned with (CONTRACT.md section 7 "provision models"): the
 * platform default, the other label model, or `custom`. The default comes first.
 */
export function provisionModels(defaultModel: LabelModelId): readonly string[] {
  return [defaultModel, ...LABEL_MODEL_IDS.filter((m) => m !== defaultModel), CUSTOM_MODEL];
}
