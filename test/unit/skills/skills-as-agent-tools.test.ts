import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ZodToolSchemas } from '../../../src/adapters/outbound/skills/zod-tool-schemas.js';
import type { InstalledSkillRecord } from '../../../src/application/ports/skill-install-repository.port.js';
import { agentTools, splitToolName, toolName } from '../../../src/application/skills/skills-as-agent-tools.js';
import type { SkillHandler } from '../../../src/application/skills/skill-handler.js';
import { recordingSkills } from '../../support/skills/recording-skills.js';

const schemas = new ZodToolSchemas();
const installed = (skillId: string, enabled = true): InstalledSkillRecord => ({ agentId: 'a', skillId: skillId as InstalledSkillRecord['skillId'], version: '1.0.0', enabled, installedAt: new Date() });

/** A skill without an `action` field: one action whose input is the whole body. */
const visual: SkillHandler = {
  slug: 'visual-synthesizer',
  version: '1.0.0',
  capabilities: [],
  actions: [
    { name: 'generate', description: 'Make an image.', input: z.object({ prompt: z.string(), size: z.enum(['s', 'm']).default('m') }), capabilities: [], run: async () => ({}) },
    { name: 'bad name!', description: 'Not a valid function name.', input: z.object({}), capabilities: [], run: async () => ({}) },
  ],
};

describe('an agent\'s tools', () => {
  it('when skills are installed, then only the enabled ones with a handler become tools, named <slug>__<action>, in install order', () => {
    const { handlers } = recordingSkills();
    const tools = agentTools([installed('email', false), installed('webhook'), installed('guestlist'), installed('calendar')], handlers, schemas);
    expect(tools.map((t) => t.name)).toEqual(['webhook__post', 'calendar__schedule', 'calendar__remember', 'calendar__pay', 'calendar__explode', 'calendar__unconfigured']);
    expect(tools[0]).toEqual({ name: 'webhook__post', description: 'POST to a URL.', parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } });
  });

  it('when an action has no `action` field, then its whole input is the parameters (defaults optional) and nothing is put back; an invalid name is not offered', () => {
    const tools = agentTools([installed('visual-synthesizer')], [visual], schemas);
    expect(tools).toEqual([
      { name: 'visual-synthesizer__generate', description: 'Make an image.', parameters: { type: 'object', properties: { prompt: { type: 'string' }, size: { type: 'string', enum: ['s', 'm'], default: 'm' } }, required: ['prompt'] } },
    ]);
    expect(schemas.parametersOf(visual.actions[0]!).selectsByAction).toBe(false);
  });

  it('when a name is split, then it gives back the slug and the action; a name without the separator is none', () => {
    expect(splitToolName(toolName('event-scheduler', 'schedule'))).toEqual({ slug: 'event-scheduler', action: 'schedule' });
    expect(splitToolName('calendar__with__more')).toEqual({ slug: 'calendar', action: 'with__more' });
    expect(splitToolName('calendar')).toBeNull();
    expect(splitToolName('__x')).toBeNull();
  });
});
