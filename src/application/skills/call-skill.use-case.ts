import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { skillCallContext } from './skill-call-context.js';
import type { SkillAction, SkillHandler } from './skill-handler.js';
import { SkillRegistry } from './skill-registry.js';

/**
 * POST /api/skills/<slug>: the authenticated user calls a skill directly. The body's `action`
 * selects the operation; a skill whose only action takes no `action` field takes the body as is.
 * The action's own schema checks the body (a ZodError: 400 VALIDATION_ERROR with details) before
 * anything runs.
 */
@injectable()
export class CallSkill {
  constructor(@inject(SkillRegistry) private readonly registry: SkillRegistry) {}

  async execute(actor: Pick<Actor, 'userId'>, slug: string, body: unknown, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const handler = this.registry.handler(slug);
    if (!handler) throw new NotFoundError('Skill');
    const action = selectAction(handler, body);
    const input: unknown = action.input.parse(body);
    return action.run(skillCallContext(handler, { userId: actor.userId, agentId: null, via: 'http', signal }), input);
  }
}

function selectAction(handler: SkillHandler, body: unknown): SkillAction {
  const [only] = handler.actions;
  if (handler.actions.length === 1 && only && !takesAction(only)) return only;
  const name = typeof body === 'object' && body !== null ? (body as { action?: unknown }).action : undefined;
  const found = typeof name === 'string' ? handler.actions.find((a) => a.name === name) : undefined;
  if (found) return found;
  const allowed = handler.actions.map((a) => a.name);
  throw new InvalidInputError('VALIDATION_ERROR', `Invalid request: action must be one of ${allowed.join(', ')}`, {
    details: [{ path: 'action', message: `must be one of ${allowed.join(', ')}` }],
    allowed,
  });
}

/** Whether the action's schema names an `action` field (every one but a single-action skill's, e.g. visual-synthesizer). */
const takesAction = (a: SkillAction): boolean => {
  const shape = (a.input as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && 'action' in shape;
};
