import { inject, injectable } from 'tsyringe';
import { allowanceOf } from '../../domain/agents/agent-limits.js';
import { isSubscribed } from '../../domain/billing/subscription.js';
import { isSkillSlug } from '../../domain/skills/skill-catalog-ids.js';
import { SkillLimitReachedError, SubscriptionRequiredForSkillsError } from '../../domain/skills/skill.errors.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../ports/scopes/skills-scope.port.js';
import { SkillRegistry } from './skill-registry.js';

/**
 * POST /api/skills: installs a skill on one of the caller's agents. In one unit of work: the agent
 * (another user's: 404), the per-agent lock, then an install that exists already succeeds as is
 * (idempotent, its recorded version kept); otherwise the subscription (none: 402, admins exempt),
 * the plan's per-agent skill limit (429 with current and limit; disabled skills count), and the
 * insert with the manifest's version. The lock makes the limit race-free.
 */
@injectable()
export class InstallSkill {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<SkillsUserScope, 'agents' | 'subscriptions' | 'skillInstalls'>,
    @inject(SkillRegistry) private readonly registry: SkillRegistry,
  ) {}

  async execute(actor: Actor, input: { skillId: string; agentId: string }): Promise<void> {
    const { skillId, agentId } = input;
    const handler = isSkillSlug(skillId) ? this.registry.handler(skillId) : undefined;
    if (!handler) throw new NotFoundError('Skill');
    const slug = handler.slug;
    await this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      await s.skillInstalls.lockAgent(agentId);
      if (await s.skillInstalls.isInstalled(agentId, slug)) return;
      const plans = (await s.subscriptions.list()).flatMap((sub) => (sub.plan && isSubscribed(sub.status) ? [sub.plan] : []));
      const allowance = allowanceOf(plans, actor.role === 'admin');
      if (!allowance) throw new SubscriptionRequiredForSkillsError();
      const current = await s.skillInstalls.countForAgent(agentId);
      if (current >= allowance.skills) throw new SkillLimitReachedError(current, allowance.skills);
      await s.skillInstalls.install({ agentId, skillId: slug, version: handler.version });
    });
  }
}
