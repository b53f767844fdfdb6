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
