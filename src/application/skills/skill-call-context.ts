import type { SkillCapability } from '../../domain/skills/skill-capability.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { SkillCallContext, SkillHandler } from './skill-handler.js';
import { SkillCapabilityDeniedError } from './skill.errors.js';

/**
 * The context of one call of `handler`: it may use only the capabilities the skill declares. Both
 * callers (the HTTP route's use case and the runtime's tool calls) build it here, so the check is
 * the same for both.
 */
export function skillCallContext(
  handler: Pick<SkillHandler, 'slug' | 'capabilities'>,
  call: { userId: UserId; agentId: string | null; via: 'http' | 'tool'; signal?: AbortSignal | undefined },
): SkillCallContext {
  const declared: readonly SkillCapability[] = handler.capabilities;
  return {
    userId: call.userId,
    agentId: call.agentId,
    via: call.via,
    ...(call.signal ? { signal: call.signal } : {}),
    requireCapability(capability) {
      if (!declared.includes(capability)) throw new SkillCapabilityDeniedError(handler.slug, capability);
    },
  };
}
