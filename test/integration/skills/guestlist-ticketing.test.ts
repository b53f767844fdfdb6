import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { EventTicketingSkill } from '../../../src/application/skills/handlers/event-ticketing/event-ticketing.skill.js';
import { GuestlistSkill } from '../../../src/application/skills/handlers/guestlist/guestlist.skill.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { callSkill, skillContext } from '../../support/skills.js';

const { uow, pools } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const guestlist = new GuestlistSkill(uow);
const ticketing = new EventTicketingSkill(uow);
const count = async (table: string) => (await pools.owner.query(`select count(*)::int as n from ${table}`)).rows[0].n as number;

describe('guestlist skill', () => {
  const asAlice = skillContext(alice.id, guestlist);
  const asBob = skillContext(bob.id, guestlist);

  it('when guests fill the list, then the next add is refused with GUESTLIST_FULL, and a removal frees a place', async () => {
    const { guestlist: list } = (await callSkill(guestlist, asAlice, { action: 'create_list', name: 'Friday', capacity: 2 })) as { guestlist: { listId: string } };
    const a = (await callSkill(guestlist, asAlice, { action: 'add', listId: list.listId, name: 'Ana', email: 'ana@example.test' })).guest as { guestId: string };
    await callSkill(guestlist, asAlice, { action: 'add', listId: list.listId, name: 'Bo' });
    await expect(callSkill(guestlist, asAlice, { action: 'add', listId: list.listId, name: 'Cy' })).rejects.toMatchObject({ code: 'GUESTLIST_FULL', details: { capacity: 2 } });
    expect(await count('skill_guests')).toBe(2);

    expect(await callSkill(guestlist, asAlice, { action: 'check_in', listId: list.listId, guestId: a.guestId })).toMatchObject({ alreadyCheckedIn: false });
    expect(await callSkill(guestlist, asAlice, { action: 'check_in', listId: list.listId, guestId: a.guestId })).toMatchObject({ alreadyCheckedIn: true });
    expect(await callSkill(guestlist, asAlice, { action: 'list', listId: list.listId })).toMatchObject({ guestlist: { guests: 2, remaining: 0 }, checkedIn: 1 });

    await callSkill(guestlist, asAlice, { action: 'remove', listId: list.listId, guestId: a.guestId });
    await callSkill(guestlist, asAlice, { action: 'add', listId: list.listId, name: 'Cy' });
    const listed = await callSkill(guestlist, asAlice, { action: 'list', listId: list.listId });
    expect((listed.guests as { name: string }[]).map((g) => g.name)).toEqual(['Bo', 'Cy']);

    // bob sees none of it and cannot add to, remove from, or check in on alice's list
    expect(await callSkill(guestlist, asBob, { action: 'list' })).toEqual({ guestlists: [], count: 0 });
    await expect(callSkill(guestlist, asBob, { action: 'list', listId: list.listId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(callSkill(guestlist, asBob, { action: 'add', listId: list.listId, name: 'Eve' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const bo = (listed.guests as { guestId: string }[])[0]!;
    await expect(callSkill(guestlist, asBob, { action: 'remove', listId: list.listId, guestId: bo.guestId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(callSkill(guestlist, asBob, { action: 'check_in', listId: list.listId, guestId: bo.guestId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await count('skill_guests')).toBe(2);
  });

  it('when two guests are added concurrently for the last place, then exactly one gets it', async () => {
    const { guestlist: list } = (await callSkill(guestlist, asAlice, { action: 'create_list', name: 'Tiny', capacity: 1 })) as { guestlist: { listId: string } };
    const results = await Promise.allSettled([1, 2].map((i) => callSkill(guestlist, asAlice, { action: 'add', listId: list.listId, name: `G${i}` })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'GUESTLIST_FULL' } });
  });

  it('when input is malformed, then it is refused and nothing is stored', async () => {
    const before = await count('skill_guestlists');
    for (const body of [{ action: 'create_list', name: 'x', capacity: 0 }, { action: 'create_list', name: '', capacity: 1 }, { action: 'add', name: 'x' }, { action: 'add', listId: 'x', name: 'y', email: 'nope' }]) {
      await expect(callSkill(guestlist, asAlice, body), JSON.stringify(body)).rejects.toBeInstanceOf(ZodError);
    }
    await expect(callSkill(guestlist, asAlice, { action: 'add', listId: 'not-a-list', name: 'y' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await count('skill_guestlists')).toBe(before);
  });
});

describe('event-ticketing skill', () => {
  const asAlice = skillContext(alice.id, ticketing);
  const asBob = skillContext(bob.id, ticketing);

  it('when tickets are bought, then each records the tier price and the tier counts its seats; a sold-out tier refuses with TICKETS_SOLD_OUT', async () => {
    const created = await callSkill(ticketing, asAlice, { action: 'create_event', name: 'Warehouse', tiers: [{ tier: 'GA', price: 25, capacity: 2 }, { tier: 'VIP', price: 79.99, capacity: 1 }] });
    const eventId = (created.event as { eventId: string }).eventId;
    const t = await callSkill(ticketing, asAlice, { action: 'purchase', eventId, email: 'fan@example.test', tier: 'VIP' });
    expect(t.ticket).toMatchObject({ eventId, tier: 'VIP', email: 'fan@example.test', priceCents: 7999 });
    await expect(callSkill(ticketing, asAlice, { action: 'purchase', eventId, email: 'late@example.test', tier: 'VIP' })).rejects.toMatchObject({ code: 'TICKETS_SOLD_OUT' });
    await expect(callSkill(ticketing, asAlice, { action: 'purchase', eventId, email: 'x@example.test', tier: 'Balcony' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const got = await callSkill(ticketing, asAlice, { action: 'get', eventId });
    expect(got.event).toMatchObject({ tiers: [{ tier: 'GA', sold: 0, remaining: 2, priceCents: 2500 }, { tier: 'VIP', sold: 1, remaining: 0 }] });
    expect(got.tickets).toHaveLength(1);

    // bob cannot see, read or buy from alice's event
    expect(await callSkill(ticketing, asBob, { action: 'list' })).toEqual({ events: [], count: 0 });
    await expect(callSkill(ticketing, asBob, { action: 'get', eventId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(callSkill(ticketing, asBob, { action: 'purchase', eventId, email: 'b@example.test', tier: 'GA' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await count('skill_tickets')).toBe(1);
  });

  it('when the last ticket is bought twice concurrently, then exactly one purchase succeeds and one ticket exists', async () => {
    for (let round = 0; round < 5; round++) {
      const created = await callSkill(ticketing, asAlice, { action: 'create_event', name: `Last seat ${round}`, tiers: [{ tier: 'GA', price: 10, capacity: 1 }] });
      const eventId = (created.event as { eventId: string }).eventId;
      const results = await Promise.allSettled(['a', 'b'].map((who) => callSkill(ticketing, asAlice, { action: 'purchase', eventId, email: `${who}@example.test`, tier: 'GA' })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'TICKETS_SOLD_OUT' } });
      expect((await pools.owner.query('select count(*)::int as n from skill_tickets where event_id = $1', [eventId])).rows[0].n).toBe(1);
    }
  });

  it('when input is malformed, then it is refused and nothing is stored', async () => {
    const before = await count('skill_ticket_events');
    for (const body of [
      { action: 'create_event', name: 'x', tiers: [] },
      { action: 'create_event', name: 'x', tiers: [{ tier: 'GA', price: 10.005, capacity: 1 }] },
      { action: 'create_event', name: 'x', tiers: [{ tier: 'GA', price: 1, capacity: 1 }, { tier: 'GA', price: 2, capacity: 1 }] },
      { action: 'purchase', eventId: 'e', email: 'not-an-email', tier: 'GA' },
      { action: 'purchase', email: 'a@example.test', tier: 'GA' },
    ]) {
      await expect(callSkill(ticketing, asAlice, body), JSON.stringify(body)).rejects.toBeInstanceOf(ZodError);
    }
    expect(await count('skill_ticket_events')).toBe(before);
  });
});
