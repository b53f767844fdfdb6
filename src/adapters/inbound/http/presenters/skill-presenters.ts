import type { CatalogSkill } from '../../../../application/skills/list-skills.use-case.js';

/** The spec's Skill fields, plus `manifest` (docs/decisions/0083-skill-manifests.md). */
export const skillBody = (s: CatalogSkill) => ({
  id: s.id,
  name: s.name,
  description: s.description,
  category: s.category,
  icon: s.icon,
  author: s.author,
  downloads: s.downloads,
  rating: s.rating,
  featured: s.featured,
  manifest: s.manifest,
});
