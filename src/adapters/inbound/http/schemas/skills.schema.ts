import { z } from 'zod';
import { SKILL_CATEGORIES } from '../../../../domain/skills/skill-catalog-ids.js';

/** `all` or omitted: every category; any other value than the spec's categories is a 400. */
export const skillsQuery = z.object({
  category: z.enum(['all', ...SKILL_CATEGORIES]).optional(),
  featured: z.enum(['true', 'false']).optional(),
});

/** Any text: an unknown skill or an agent id that is not a uuid answers 404, like another user's agent. */
export const installSkillBody = z.object({
  skillId: z.string().trim().min(1).max(64),
  agentId: z.string().min(1).max(200),
});

export const skillParams = z.object({ slug: z.string().min(1).max(64) });

/**
 * `POST /api/skills/:slug`, as the document describes it: the action's own schema checks the body
 * (CallSkill), so this names only what every action shares: the action's name.
 */
export const skillCallDocumentedBody = z
  .looseObject({
    action: z.string().optional().describe("the skill's action; a skill with a single action needs none"),
  })
  .describe("the action's own fields besides these (README \"Skill manifests\")");
