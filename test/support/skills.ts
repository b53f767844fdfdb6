import type { SkillCapability } from '../../src/domain/skills/skill-capability.js';
import type { UserId } from '../../src/domain/shared/ids.js';
import type { SkillCallContext, SkillHandler } from '../../src/application/skills/skill-handler.js';
import { SkillCapabilityDeniedError } from '../../src/application/skills/skill.errors.js';

/**
 * A skill call as the route or a tool call makes it: the body's `action` selects the action, its
 * zod schema parses the whole body (a wrong shape throws ZodError), and `run` gets the parsed input.
 */
export async function callSkill(handler: SkillHandler, ctx: SkillCallContext, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const action = handler.actions.find((a) => a.name === body.action) ?? (handler.actions.length === 1 ? handler.actions[0] : undefined);
  if (!action) throw new Error(`no action ${String(body.action)} on ${handler.slug}`);
  const input = action.input.parse(body);
  return action.run(ctx, input);
}

/** The context of a call by `userId` whose skill may use `allowed` (its manifest's capabilities unless given). */
export function skillContext(userId: UserId | string, handler: SkillHandler, allowed: readonly SkillCapability[] = handler.capabilities): SkillCallContext {
  return {
    userId: userId as UserId,
    agentId: null,
    via: 'http',
    requireCapability(capability) {
      if (!allowed.includes(capability)) throw new SkillCapabilityDeniedError(handler.slug, capability);
    },
  };
}
