import { describe, expect, it } from 'vitest';
import { containerWithUnusedSkillPorts } from '../../support/skills.js';
import { SKILL_HANDLERS } from '../../../src/application/ports/skill-handlers.port.js';
import { skillCallContext } from '../../../src/application/skills/skill-call-context.js';
import { manifestOf } from '../../../src/application/skills/skill-manifest.js';
import { SkillRegistry } from '../../../src/application/skills/skill-registry.js';
import { registerSkills } from '../../../src/bootstrap/register-skills.js';
import { SKILL_CAPABILITIES } from '../../../src/domain/skills/skill-capability.js';
import { SKILL_CATEGORIES, SKILL_SLUGS } from '../../../src/domain/skills/skill-catalog-ids.js';
import { SKILL_CATALOG, selectSkills } from '../../../src/domain/skills/skill-catalog.js';
import type { UserId } from '../../../src/domain/shared/ids.js';

const c = containerWithUnusedSkillPorts();
registerSkills(c);
const handlers = c.resolve(SKILL_HANDLERS);

describe('skill handlers and their manifests', () => {
  it('when the handlers are registered, then each has a catalog slug and no two share one', () => {
    const slugs = handlers.map((h) => h.slug);
    expect(slugs.filter((s) => !(SKILL_SLUGS as readonly string[]).includes(s))).toEqual([]);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it('when the handlers are registered, then every slug of the catalog has exactly one', () => {
    expect(handlers.map((h) => h.slug).sort()).toEqual([...SKILL_SLUGS].sort());
  });

  it("when a manifest is derived, then every action's capabilities are within its skill's, and all are known capabilities", () => {
    for (const h of handlers) {
      const m = manifestOf(h);
      expect(m.capabilities.every((cap) => (SKILL_CAPABILITIES as readonly string[]).includes(cap)), h.slug).toBe(true);
      for (const a of m.actions) expect(a.capabilities.filter((cap) => !m.capabilities.includes(cap)), `${h.slug} ${a.name}`).toEqual([]);
      expect(m.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(new Set(m.actions.map((a) => a.name)).size).toBe(m.actions.length);
    }
  });

  it('when a manifest is derived, then each action carries the JSON schema of its input', () => {
    const venue = manifestOf(handlers.find((h) => h.slug === 'venue-finder')!);
    expect(venue.actions[0]).toMatchObject({ name: 'search', inputSchema: { type: 'object', required: expect.arrayContaining(['action', 'city']), properties: { action: { const: 'search' } } } });
    const visual = manifestOf(handlers.find((h) => h.slug === 'visual-synthesizer')!);
    expect(Object.keys((visual.actions[0]!.inputSchema as { properties: object }).properties).sort()).toEqual(['prompt', 'style']);
  });

  it('when two handlers share a slug, then the registry refuses to start', () => {
    expect(() => new SkillRegistry([handlers[0]!, handlers[0]!])).toThrow(/share the slug/);
  });

  it('when a handler asks for a capability its skill does not declare, then the context refuses', () => {
    const ctx = skillCallContext({ slug: 'browser', capabilities: ['network'] }, { userId: 'u' as UserId, agentId: null, via: 'http' });
    expect(() => ctx.requireCapability('network')).not.toThrow();
    expect(() => ctx.requireCapability('wallet')).toThrow(expect.objectContaining({ code: 'SKILL_CAPABILITY_DENIED' }));
  });
});

describe('the catalog', () => {
  it('lists every slug exactly once, in its category, with the fields of a listing', () => {
    expect(SKILL_CATALOG.map((s) => s.id).sort()).toEqual([...SKILL_SLUGS].sort());
    for (const s of SKILL_CATALOG) {
      expect(SKILL_CATEGORIES).toContain(s.category);
      expect(s.name.length).toBeGreaterThan(0);
      expect(s.description.length).toBeGreaterThan(0);
      expect(s.icon).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it('selects by category and by featured', () => {
    expect(selectSkills({ category: 'events' }).map((s) => s.id)).toEqual(['guestlist', 'event-ticketing', 'event-scheduler', 'venue-finder', 'festival-finder']);
    expect(selectSkills({ featuredOnly: true }).every((s) => s.featured)).toBe(true);
    expect(selectSkills({}).length).toBe(SKILL_SLUGS.length);
  });
});
