import { inject, injectable } from 'tsyringe';
import type { SkillSlug } from '../../domain/skills/skill-catalog-ids.js';
import type { SkillHandler } from './skill-handler.js';
import { SKILL_HANDLERS } from '../ports/skill-handlers.port.js';
import { manifestOf, type SkillManifest } from './skill-manifest.js';

/** The registered handlers by slug, and their manifests, computed once. */
@injectable()
export class SkillRegistry {
  private readonly bySlug = new Map<string, { handler: SkillHandler; manifest: SkillManifest }>();

  constructor(@inject(SKILL_HANDLERS) handlers: readonly SkillHandler[]) {
    for (const handler of handlers) {
      // two handlers for one slug would make which one runs depend on registration order
      if (this.bySlug.has(handler.slug)) throw new Error(`Two skill handlers share the slug ${handler.slug}`);
      this.bySlug.set(handler.slug, { handler, manifest: manifestOf(handler) });
    }
  }

  handler(slug: string): SkillHandler | undefined {
    return this.bySlug.get(slug)?.handler;
  }

  manifest(slug: SkillSlug): SkillManifest | null {
    return this.bySlug.get(slug)?.manifest ?? null;
  }
}
