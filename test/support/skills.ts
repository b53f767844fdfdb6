import { container, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { CLOCK } from '../../src/application/ports/clock.port.js';
import { ID_GENERATOR } from '../../src/application/ports/id-generator.port.js';
import { SKILL_WEBHOOK_TARGETS } from '../../src/application/ports/skill-webhook-targets.port.js';
import { UNIT_OF_WORK } from '../../src/application/ports/unit-of-work.port.js';
import { USER_WALLETS } from '../../src/application/ports/user-wallets.port.js';
import { WALLET_BALANCES } from '../../src/application/ports/wallet-balances.port.js';
import { WALLET_SIGNER } from '../../src/application/ports/wallet-signer.port.js';
import { WEBHOOK_DELIVERY } from '../../src/application/ports/webhook-delivery.port.js';
import { WEBHOOK_SIGNER } from '../../src/application/ports/webhook-signer.port.js';
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

/**
 * A child container with every port the skill handlers are built with registered as an empty
 * object: enough to resolve the handlers and read their names, actions and schemas; any call that
 * reaches a port fails loudly.
 */
export function containerWithUnusedSkillPorts(): DependencyContainer {
  const c = container.createChildContainer();
  const unused = [UNIT_OF_WORK, WEBHOOK_DELIVERY, WEBHOOK_SIGNER, SKILL_WEBHOOK_TARGETS, CLOCK, ID_GENERATOR, WALLET_SIGNER, WALLET_BALANCES, USER_WALLETS] as InjectionToken<unknown>[];
  for (const token of unused) {
    c.register(token, { useValue: {} as never });
  }
  return c;
}
