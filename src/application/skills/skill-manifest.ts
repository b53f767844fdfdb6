import { z } from 'zod';
import type { SkillCapability } from '../../domain/skills/skill-capability.js';
import type { SkillSlug } from '../../domain/skills/skill-catalog-ids.js';
import type { SkillHandler } from './skill-handler.js';

/** What a skill declares (docs/decisions/0083-skill-manifests.md): derived from its handler, never written by hand. */
export interface SkillManifest {
  slug: SkillSlug;
  version: string;
  capabilities: SkillCapability[];
  actions: { name: string; description: string; capabilities: SkillCapability[]; inputSchema: Record<string, unknown> }[];
}

export function manifestOf(h: SkillHandler): SkillManifest {
  return {
    slug: h.slug,
    version: h.version,
    capabilities: [...h.capabilities],
    actions: h.actions.map((a) => ({
      name: a.name,
      description: a.description,
      capabilities: [...a.capabilities],
      inputSchema: z.toJSONSchema(a.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    })),
  };
}
