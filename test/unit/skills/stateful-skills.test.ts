import { describe, expect, it } from 'vitest';
import { containerWithUnusedSkillPorts } from '../../support/skills.js';
import { z } from 'zod';
import { STATEFUL_SKILL_HANDLERS } from '../../../src/application/skills/handlers/stateful-skills.js';
import { isSkillSlug } from '../../../src/domain/skills/skill-catalog-ids.js';

/** Resolved as the container does; nothing is called, so the unit of work and delivery are never reached. */
const c = containerWithUnusedSkillPorts();
const handlers = STATEFUL_SKILL_HANDLERS.map((t) => c.resolve(t));

describe('the stateful skills as a set', () => {
  it('when resolved, then each is a catalog slug, once, with a version and actions whose capabilities it declares', () => {
    const slugs = handlers.map((h) => h.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.sort()).toEqual([
      'booking-settlement', 'calendar', 'demo-submitter', 'event-scheduler', 'event-ticketing', 'groupie-manager', 'guestlist', 'instant-split',
      'notes-workspace', 'royalty-tracker', 'setlist-oracle', 'treasury', 'webhook',
    ]);
    for (const h of handlers) {
      expect(isSkillSlug(h.slug), h.slug).toBe(true);
      expect(h.version).toBe('1.0.0');
      for (const a of h.actions) for (const cap of a.capabilities) expect(h.capabilities, `${h.slug}.${a.name}`).toContain(cap);
    }
  });

  it("when a model's tool schema is derived from each action, then it names the action and its fields", () => {
    for (const h of handlers) {
      for (const a of h.actions) {
        const schema = z.toJSONSchema(a.input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { const?: unknown }> };
        expect(schema.properties?.action?.const, `${h.slug}.${a.name}`).toBe(a.name);
        expect(a.description.length).toBeGreaterThan(10);
      }
    }
  });

  it('when the spec names request shapes, then those actions take exactly those fields', () => {
    const fields = (slug: string, action: string) => {
      const a = handlers.find((h) => h.slug === slug)!.actions.find((x) => x.name === action)!;
      return Object.keys((z.toJSONSchema(a.input, { io: 'input', unrepresentable: 'any' }) as { properties: object }).properties).sort();
    };
    expect(fields('event-scheduler', 'schedule')).toEqual(['action', 'channels', 'date', 'time', 'title']);
    expect(fields('event-ticketing', 'purchase')).toEqual(['action', 'email', 'eventId', 'tier']);
    expect(fields('setlist-oracle', 'build')).toEqual(['action', 'duration', 'genre']);
    expect(fields('demo-submitter', 'submit')).toEqual(expect.arrayContaining(['action', 'artist', 'title']));
    expect(fields('groupie-manager', 'segment')).toEqual(['action']);
    expect(fields('royalty-tracker', 'total')).toEqual(expect.arrayContaining(['action']));
    expect(fields('booking-settlement', 'simulate_settlement')).toEqual(['action', 'booking']);
    expect(fields('instant-split', 'create_split_rule')).toEqual(['action', 'splits', 'threshold']);
    expect(fields('instant-split', 'simulate')).toEqual(expect.arrayContaining(['action', 'rate', 'streams']));
    const booking = handlers.find((h) => h.slug === 'booking-settlement')!;
    expect(booking.actions.map((a) => a.name).sort()).toEqual(['create_escrow', 'get', 'list', 'release_funds', 'simulate_settlement']);
    const split = handlers.find((h) => h.slug === 'instant-split')!;
    expect(split.actions.map((a) => a.name)).toEqual(expect.arrayContaining(['list_pending', 'create_split_rule', 'execute_split', 'get_balance', 'simulate']));
  });
});
