import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { CalendarSkill } from '../../../src/application/skills/handlers/calendar/calendar.skill.js';
import { DemoSubmitterSkill } from '../../../src/application/skills/handlers/demo-submitter/demo-submitter.skill.js';
import { GroupieManagerSkill } from '../../../src/application/skills/handlers/groupie-manager/groupie-manager.skill.js';
import { NotesWorkspaceSkill } from '../../../src/application/skills/handlers/notes-workspace/notes-workspace.skill.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { callSkill, skillContext } from '../../support/skills.js';

const { uow, pools } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const count = async (table: string) => (await pools.owner.query(`select count(*)::int as n from ${table}`)).rows[0].n as number;

describe('groupie-manager skill', () => {
  const skill = new GroupieManagerSkill(uow);
  it("when fans are segmented, then the user's own stored fans are grouped by engagement", async () => {
    const ctx = skillContext(alice.id, skill);
    await callSkill(skill, ctx, { action: 'add_fan', name: 'Ana', showsAttended: 5, purchases: 1 });
    await callSkill(skill, ctx, { action: 'add_fan', name: 'Bo', streams: 2500, email: 'bo@example.test' });
    await callSkill(skill, ctx, { action: 'add_fan', name: 'Cy' });
    await callSkill(skill, skillContext(bob.id, skill), { action: 'add_fan', name: 'Bob fan', showsAttended: 9 });
    const r = await callSkill(skill, ctx, { action: 'segment' });
    expect(r.total).toBe(3);
    expect((r.segments as { segment: string; fans: { name: string; score: number }[] }[]).map((s) => [s.segment, s.fans.map((f) => `${f.name}:${f.score}`)])).toEqual([
      ['superfan', ['Ana:55']], ['engaged', ['Bo:25']], ['casual', []], ['dormant', ['Cy:0']],
    ]);
    await expect(callSkill(skill, ctx, { action: 'add_fan', name: 'x', streams: -1 })).rejects.toBeInstanceOf(ZodError);
    expect(await count('skill_fans')).toBe(4);
  });
});

describe('demo-submitter skill', () => {
  const skill = new DemoSubmitterSkill(uow);
  it('when a demo is submitted, then it is stored as submitted and listed only for its owner', async () => {
    const ctx = skillContext(alice.id, skill);
    const r = await callSkill(skill, ctx, { action: 'submit', title: 'Night Drive', artist: 'Alice', label: 'Warp', link: 'https://example.test/nd.wav' });
    expect(r.demo).toMatchObject({ title: 'Night Drive', artist: 'Alice', label: 'Warp', status: 'submitted' });
    expect(await callSkill(skill, ctx, { action: 'list' })).toMatchObject({ count: 1 });
    expect(await callSkill(skill, skillContext(bob.id, skill), { action: 'list' })).toEqual({ demos: [], count: 0 });
    for (const body of [{ action: 'submit', title: 'x' }, { action: 'submit', title: 'x', artist: 'y', link: 'javascript:alert(1)' }]) {
      await expect(callSkill(skill, ctx, body)).rejects.toBeInstanceOf(ZodError);
    }
    expect(await count('skill_demos')).toBe(1);
  });
});

describe('calendar skill', () => {
  const skill = new CalendarSkill(uow);
  it('when entries are added, then list returns those overlapping the range, soonest first', async () => {
    const ctx = skillContext(alice.id, skill);
    await callSkill(skill, ctx, { action: 'add', title: 'Soundcheck', start: '2027-03-01T17:00:00+01:00', end: '2027-03-01T18:00:00+01:00' });
    await callSkill(skill, ctx, { action: 'add', title: 'Set', start: '2027-03-01T22:00:00Z', end: '2027-03-02T00:00:00Z', notes: 'bring USB' });
    const r = await callSkill(skill, ctx, { action: 'list', from: '2027-03-01T16:30:00Z', to: '2027-03-01T23:00:00Z' });
    expect((r.entries as { title: string; start: string }[]).map((e) => [e.title, e.start])).toEqual([['Soundcheck', '2027-03-01T16:00:00.000Z'], ['Set', '2027-03-01T22:00:00.000Z']]);
    expect(await callSkill(skill, ctx, { action: 'list', from: '2027-03-01T23:59:00Z' })).toMatchObject({ count: 1 });
    expect(await callSkill(skill, skillContext(bob.id, skill), { action: 'list' })).toEqual({ entries: [], count: 0 });
    for (const body of [
      { action: 'add', title: 'x', start: '2027-03-01T18:00:00Z', end: '2027-03-01T17:00:00Z' },
      { action: 'add', title: 'x', start: '2027-03-01 18:00', end: '2027-03-01T19:00:00Z' },
      { action: 'add', title: 'x', start: '2027-03-01T18:00:00', end: '2027-03-01T19:00:00Z' },
    ]) {
      await expect(callSkill(skill, ctx, body), JSON.stringify(body)).rejects.toBeInstanceOf(ZodError);
    }
    expect(await count('skill_calendar_entries')).toBe(2);
  });
});

describe('notes-workspace skill', () => {
  const skill = new NotesWorkspaceSkill(uow);
  it('when notes are stored, then get and list (with a literal query) return only the owner’s notes', async () => {
    const ctx = skillContext(alice.id, skill);
    const a = (await callSkill(skill, ctx, { action: 'add', title: 'Rider', content: '2 towels, 100% cotton' })).note as { id: string };
    await callSkill(skill, ctx, { action: 'add', title: 'Setlist ideas', content: 'open with Dawn' });
    expect((await callSkill(skill, ctx, { action: 'get', noteId: a.id })).note).toMatchObject({ title: 'Rider' });
    expect((await callSkill(skill, ctx, { action: 'list' })).count).toBe(2);
    expect((await callSkill(skill, ctx, { action: 'list', query: 'DAWN' })).notes).toMatchObject([{ title: 'Setlist ideas' }]);
    expect((await callSkill(skill, ctx, { action: 'list', query: '100%' })).notes).toMatchObject([{ title: 'Rider' }]);
    expect((await callSkill(skill, ctx, { action: 'list', query: '%' })).count).toBe(1);
    await expect(callSkill(skill, skillContext(bob.id, skill), { action: 'get', noteId: a.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await callSkill(skill, skillContext(bob.id, skill), { action: 'list' })).toEqual({ notes: [], count: 0 });
    await expect(callSkill(skill, ctx, { action: 'add', title: 'x' })).rejects.toBeInstanceOf(ZodError);
  });
});
