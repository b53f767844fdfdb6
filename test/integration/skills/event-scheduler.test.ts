import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { EventSchedulerSkill } from '../../../src/application/skills/handlers/event-scheduler/event-scheduler.skill.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { callSkill, skillContext } from '../../support/skills.js';

const { uow, pools } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const skill = new EventSchedulerSkill(uow);
const asAlice = skillContext(alice.id, skill);
const asBob = skillContext(bob.id, skill);
const count = async () => (await pools.owner.query('select count(*)::int as n from skill_events')).rows[0].n as number;

describe('event-scheduler skill', () => {
  it('when an event is scheduled, then it is stored and returned, and list shows the events soonest first', async () => {
    const later = await callSkill(skill, asAlice, { action: 'schedule', title: 'Release party', date: '2027-03-01', time: '21:30', channels: ['email', 'telegram', 'email'] });
    expect(later.event).toMatchObject({ title: 'Release party', date: '2027-03-01', time: '21:30', channels: ['email', 'telegram'] });
    expect((later.event as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);
    await callSkill(skill, asAlice, { action: 'schedule', title: 'Leap day show', date: '2028-02-29', time: '00:00', channels: [] });
    const listed = await callSkill(skill, asAlice, { action: 'list' });
    expect(listed.count).toBe(2);
    expect((listed.events as { title: string; date: string }[]).map((e) => [e.title, e.date])).toEqual([['Release party', '2027-03-01'], ['Leap day show', '2028-02-29']]);
  });

  it('when the date is not a real calendar day, the time not HH:MM, or a field is missing, then the input is refused and nothing is stored', async () => {
    const before = await count();
    const base = { action: 'schedule', title: 'x', date: '2027-03-01', time: '21:30', channels: [] };
    for (const bad of [
      { date: '2027-02-29' }, { date: '2027-13-01' }, { date: '2027-04-31' }, { date: '27-03-01' }, { date: '2027-3-1' },
      { time: '24:00' }, { time: '9:30' }, { time: '12:60' }, { title: '' }, { title: 'a\u0000b' }, { channels: 'email' }, { channels: undefined }, { when: 'tomorrow' },
    ]) {
      await expect(callSkill(skill, asAlice, { ...base, ...bad }), JSON.stringify(bad)).rejects.toBeInstanceOf(ZodError);
    }
    expect(await count()).toBe(before);
  });

  it('when another user lists, then none of alice\'s events are visible', async () => {
    expect(await callSkill(skill, asBob, { action: 'list' })).toEqual({ events: [], count: 0 });
  });
});
