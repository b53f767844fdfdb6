import type { z } from 'zod';
import type { SkillCapability } from '../../domain/skills/skill-capability.js';
import type { SkillSlug } from '../../domain/skills/skill-catalog-ids.js';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * The contract between the skills area and each skill's behaviour. One SkillHandler per slug;
 * the registry (SKILL_HANDLERS) holds them all. The same handler serves `POST /api/skills/<slug>`
 * (the authenticated user calling it) and an agent's tool call (the runtime calling it for the
 * agent's owner); only the context differs. Its input schemas are zod, so it lives beside the
 * skills (the one area of the application that may use zod), not among the ports.
 */

/** Who a skill call acts for, and what it may reach. */
export interface SkillCallContext {
  /** The authenticated user (HTTP) or the agent's owner (tool call); every row read or written is theirs. */
  readonly userId: UserId;
  /** The agent whose tool call this is; null for a direct HTTP call. */
  readonly agentId: string | null;
  readonly via: 'http' | 'tool';
  /**
   * Throws SkillCapabilityDeniedError unless the skill's manifest declares `capability`.
   * A handler calls it before it touches what the capability covers (the network, a wallet,
   * the agent's memory, a payment, a message to a person).
   */
  requireCapability(capability: SkillCapability): void;
  /** Aborted when the caller leaves or the tool step times out. */
  readonly signal?: AbortSignal;
}

/**
 * One operation of a skill. `input` is the zod schema of the whole request body, `action` field
 * included when the skill selects operations by `action` (the spec's "known request shapes");
 * a skill without an `action` field (visual-synthesizer) has exactly one action whose schema has
 * no `action` key. The JSON schema offered to models is derived from `input` (z.toJSONSchema),
 * so the HTTP edge and the tools validate with the same schema.
 */
export interface SkillAction<S extends z.ZodType = z.ZodType> {
  /** The `action` value (`schedule`), or the operation's name for a skill without `action`. */
  readonly name: string;
  /** One sentence a model reads to decide when to call it. */
  readonly description: string;
  readonly input: S;
  /** What this action needs; must be a subset of the skill's declared capabilities. */
  readonly capabilities: readonly SkillCapability[];
  /** The response body beyond `success: true` (the route adds `success`). Throws DomainErrors. */
  run(ctx: SkillCallContext, input: z.infer<S>): Promise<Record<string, unknown>>;
}

export interface SkillHandler {
  readonly slug: SkillSlug;
  /** The manifest version recorded on install (semver text). */
  readonly version: string;
  /** Everything any of its actions may need; the manifest's `capabilities`. */
  readonly capabilities: readonly SkillCapability[];
  readonly actions: readonly SkillAction[];
}
