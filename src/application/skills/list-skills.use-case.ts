import { inject, injectable } from 'tsyringe';
import { SKILL_CATEGORIES, type SkillCategory } from '../../domain/skills/skill-catalog-ids.js';
import { selectSkills, type SkillListing } from '../../domain/skills/skill-catalog.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { SkillsSystemScope } from '../ports/scopes/skills-scope.port.js';
import type { SkillManifest } from './skill-manifest.js';
import { SkillRegistry } from './skill-registry.js';

export interface CatalogSkill extends SkillListing {
  /** Agents that have it installed now, across all users. */
  downloads: number;
  /** No ratings are collected: always 0 (docs/decisions/0079-skill-catalog.md). */
  rating: number;
  /** Null only while no handler is registered for the slug. */
  manifest: SkillManifest | null;
}

export interface SkillCatalogPage {
  skills: CatalogSkill[];
  categories: SkillCategory[];
  /** The featured skills of the same selection. */
  featured: CatalogSkill[];
}

/** GET /api/skills: the catalog, filtered, with the real install counts. */
@injectable()
export class ListSkills {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<SkillsSystemScope, 'skillInstallStats'>,
    @inject(SkillRegistry) private readonly registry: SkillRegistry,
  ) {}

  async execute(filter: { category?: SkillCategory | undefined; featuredOnly?: boolean | undefined }): Promise<SkillCatalogPage> {
    const counts = await this.uow.asSystem((s) => s.skillInstallStats.countsBySkill());
    const skills = selectSkills(filter).map((s) => ({ ...s, downloads: counts.get(s.id) ?? 0, rating: 0, manifest: this.registry.manifest(s.id) }));
    return { skills, categories: [...SKILL_CATEGORIES], featured: skills.filter((s) => s.featured) };
  }
}
