import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { sqlAsUser } from '../../support/sql-as-user.js';

/** The skill state tables (migration 0018) as the request and system roles see them: owner only, nothing for the system role. */
const { pools, uow } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);

await uow.asUser(alice.id, async (s) => {
  await s.scheduledEvents.insert(alice.id, { title: 't', date: '2027-01-01', time: '10:00', channels: [] });
  await s.escrows.insert(alice.id, { bookingId: 'b', guaranteeCents: 1, backendCents: 0, depositCents: 0, amountCents: 1 });
  const rule = await s.splits.insertRule(alice.id, { splits: [{ recipientAddress: 'a', role: 'r', name: 'n', basisPoints: 10_000 }], thresholdCents: 0 });
  await s.splits.insertExecution(alice.id, { ruleId: rule.id, amountCents: 5, allocations: [] });
  const list = await s.guestlists.insertList(alice.id, { name: 'l', capacity: 5 });
  await s.guestlists.takePlace(list.id);
  await s.guestlists.insertGuest(alice.id, { listId: list.id, name: 'g', email: null });
  const ev = await s.ticketing.insertEvent(alice.id, { name: 'e', tiers: [{ tier: 'GA', priceCents: 100, capacity: 5 }] });
  await s.ticketing.takeSeat(ev.id, 'GA');
  await s.ticketing.insertTicket(alice.id, { eventId: ev.id, tier: 'GA', email: 'a@example.test', priceCents: 100 });
  await s.royalties.insert(alice.id, { source: 's', amountCents: 1, period: null });
  await s.tracks.insert(alice.id, { title: 't', artist: 'a', genre: 'g', durationSeconds: 60 });
  await s.fans.insert(alice.id, { name: 'f', email: null, city: null, showsAttended: 0, purchases: 0, streams: 0 });
  await s.demos.insert(alice.id, { title: 't', artist: 'a', label: null, link: null });
  await s.calendar.insert(alice.id, { title: 't', startsAt: new Date('2027-01-01T10:00:00Z'), endsAt: new Date('2027-01-01T11:00:00Z'), notes: null });
  await s.notes.insert(alice.id, { title: 't', content: 'c' });
});

const TABLES = [
  'skill_events', 'skill_escrows', 'skill_split_rules', 'skill_split_executions', 'skill_guestlists', 'skill_guests', 'skill_ticket_events',
  'skill_ticket_tiers', 'skill_tickets', 'skill_royalties', 'skill_tracks', 'skill_fans', 'skill_demos', 'skill_calendar_entries', 'skill_notes',
];

const asUser = sqlAsUser(pools);

describe('skill state tables under row-level security', () => {
  it("when another user reads, updates or deletes, then none of alice's rows is visible or touched", async () => {
    for (const table of TABLES) {
      expect((await asUser(alice.id, `select count(*)::int as n from ${table}`)).rows[0].n, table).toBe(1);
      expect((await asUser(bob.id, `select count(*)::int as n from ${table}`)).rows[0].n, table).toBe(0);
    }
    expect((await asUser(bob.id, `update skill_escrows set status = 'released', released_at = now()`)).rowCount).toBe(0);
    expect((await asUser(bob.id, `update skill_ticket_tiers set sold = 0`)).rowCount).toBe(0);
    expect((await asUser(bob.id, `delete from skill_guests`)).rowCount).toBe(0);
  });

  it('when the request role writes rows for another user or columns it has no grant on, then it is refused', async () => {
    await expect(asUser(bob.id, `insert into skill_events (user_id, title, event_date, event_time, channels) values ($1, 'x', '2027-01-01', '10:00', '{}')`, [alice.id])).rejects.toThrow(/row-level security/);
    await expect(asUser(bob.id, `insert into skill_notes (user_id, title, content) values ($1, 'x', 'y')`, [alice.id])).rejects.toThrow(/row-level security/);
    await expect(asUser(alice.id, `update skill_escrows set amount_cents = 0`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `update skill_ticket_tiers set price_cents = 0`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `delete from skill_escrows`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `delete from skill_split_executions`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.id, `update skill_guestlists set guest_count = 99`)).rejects.toThrow(/guest_count_check|check constraint/);
  });

  it('when the system role reads skill state, then it is refused', async () => {
    for (const table of TABLES) await expect(pools.system.query(`select 1 from ${table}`), table).rejects.toThrow(/permission denied/);
  });
});
