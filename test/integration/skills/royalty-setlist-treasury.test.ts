import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { BookingSettlementSkill } from '../../../src/application/skills/handlers/booking-settlement/booking-settlement.skill.js';
import { InstantSplitSkill } from '../../../src/application/skills/handlers/instant-split/instant-split.skill.js';
import { RoyaltyTrackerSkill } from '../../../src/application/skills/handlers/royalty-tracker/royalty-tracker.skill.js';
import { SetlistOracleSkill } from '../../../src/application/skills/handlers/setlist-oracle/setlist-oracle.skill.js';
import { TreasurySkill } from '../../../src/application/skills/handlers/treasury/treasury.skill.js';
import { SkillCapabilityDeniedError } from '../../../src/application/skills/skill.errors.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { callSkill, skillContext } from '../../support/skills.js';
import { walletPorts } from '../../support/wallets.js';

const { uow, pools } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const count = async (table: string) => (await pools.owner.query(`select count(*)::int as n from ${table}`)).rows[0].n as number;

describe('royalty-tracker skill', () => {
  const skill = new RoyaltyTrackerSkill(uow);
  const asAlice = skillContext(alice.id, skill);

  it('when entries are recorded, then total sums them exactly in cents, overall, per source and per period', async () => {
    // 0.1 + 0.2 in floating point is not 0.3; in cents it is
    await callSkill(skill, asAlice, { action: 'record', source: 'Spotify', amount: 0.1, period: '2026-Q3' });
    await callSkill(skill, asAlice, { action: 'record', source: 'Spotify', amount: 0.2, period: '2026-Q4' });
    await callSkill(skill, asAlice, { action: 'record', source: 'ASCAP', amount: 1234.56 });
    expect(await callSkill(skill, asAlice, { action: 'total' })).toEqual({
      totalCents: 123_486, currency: 'USD', entries: 3, bySource: [{ source: 'Spotify', totalCents: 30 }, { source: 'ASCAP', totalCents: 123_456 }],
    });
    expect(await callSkill(skill, asAlice, { action: 'total', source: 'Spotify' })).toMatchObject({ totalCents: 30, entries: 2 });
    expect(await callSkill(skill, asAlice, { action: 'total', period: '2026-Q4' })).toMatchObject({ totalCents: 20, entries: 1 });
    expect(await callSkill(skill, skillContext(bob.id, skill), { action: 'total' })).toMatchObject({ totalCents: 0, entries: 0, bySource: [] });
  });

  it('when an amount is malformed, then it is refused and nothing is recorded', async () => {
    const before = await count('skill_royalties');
    for (const body of [{ action: 'record', source: 'x', amount: 0.005 }, { action: 'record', source: 'x', amount: -3 }, { action: 'record', amount: 3 }]) {
      await expect(callSkill(skill, asAlice, body)).rejects.toBeInstanceOf(ZodError);
    }
    expect(await count('skill_royalties')).toBe(before);
  });
});

describe('setlist-oracle skill', () => {
  const skill = new SetlistOracleSkill(uow);
  const asAlice = skillContext(alice.id, skill);

  it("when a setlist is built, then it uses only the user's own tracks of the genre and fits the duration", async () => {
    for (const [title, genre, minutes] of [['Dawn', 'Techno', 7], ['Pulse', 'techno', 6], ['Drift', 'House', 5], ['Static', 'Techno', 4], ['Rise', 'Techno', 9]] as const) {
      await callSkill(skill, asAlice, { action: 'add_track', title, artist: 'Alice', genre, durationSeconds: minutes * 60 });
    }
    await callSkill(new SetlistOracleSkill(uow), skillContext(bob.id, skill), { action: 'add_track', title: 'Bob track', artist: 'Bob', genre: 'Techno', durationSeconds: 60 });
    const set = await callSkill(skill, asAlice, { action: 'build', genre: 'TECHNO', duration: 20 });
    expect(set).toMatchObject({ targetSeconds: 1200, totalSeconds: 1200, gapSeconds: 0, availableTracks: 4 });
    expect((set.setlist as { title: string }[]).map((t) => t.title)).toEqual(['Dawn', 'Static', 'Rise']);
    expect(await callSkill(skill, asAlice, { action: 'build', genre: 'Jazz', duration: 60 })).toMatchObject({ setlist: [], totalSeconds: 0, availableTracks: 0 });
    expect(await callSkill(skill, skillContext(bob.id, skill), { action: 'build', genre: 'Techno', duration: 60 })).toMatchObject({ totalSeconds: 60, availableTracks: 1 });
  });

  it('when a track or build request is malformed, then it is refused and nothing is stored', async () => {
    const before = await count('skill_tracks');
    for (const body of [{ action: 'add_track', title: 'x', artist: 'y', genre: 'z', durationSeconds: 0 }, { action: 'add_track', title: 'x', artist: 'y', durationSeconds: 60 }, { action: 'build', genre: 'Techno' }, { action: 'build', genre: 'Techno', duration: -5 }]) {
      await expect(callSkill(skill, asAlice, body)).rejects.toBeInstanceOf(ZodError);
    }
    expect(await count('skill_tracks')).toBe(before);
  });
});

describe('treasury skill', () => {
  const skill = new TreasurySkill(uow, walletPorts(uow).userWallets);

  it("when balances are read, then they are the user's own escrow, split and royalty totals", async () => {
    const carol = await insertUser(uow);
    const booking = new BookingSettlementSkill(uow);
    const wallets = walletPorts(uow);
    const split = new InstantSplitSkill(uow, wallets.signer, wallets.balances, wallets.sendPayouts);
    await callSkill(booking, skillContext(carol.id, booking), { action: 'create_escrow', bookingId: 'b1', booking: { guarantee: 100, backend: 0, deposit: 0 } });
    await callSkill(booking, skillContext(carol.id, booking), { action: 'create_escrow', bookingId: 'b2', booking: { guarantee: 50, backend: 25.5, deposit: 0 } });
    await callSkill(booking, skillContext(carol.id, booking), { action: 'release_funds', bookingId: 'b2' });
    const rule = await callSkill(split, skillContext(carol.id, split), { action: 'create_split_rule', splits: [{ recipientAddress: 'x', percentage: 100, role: 'artist', name: 'C' }], threshold: 10 });
    const splitId = (rule.splitRule as { splitId: string }).splitId;
    await callSkill(split, skillContext(carol.id, split), { action: 'execute_split', splitId, amount: 12 });
    await callSkill(split, skillContext(carol.id, split), { action: 'execute_split', splitId, amount: 3 });
    expect(await callSkill(skill, skillContext(carol.id, skill), { action: 'balances' })).toEqual({
      currency: 'USD',
      escrow: { heldCents: 10_000, releasedCents: 7550, held: 1, released: 1 },
      splits: { distributedCents: 1200, pendingCents: 300, rules: 1 },
      royalties: { totalCents: 0, entries: 0 },
    });
    expect(await callSkill(skill, skillContext(bob.id, skill), { action: 'balances' })).toMatchObject({ escrow: { heldCents: 0, releasedCents: 0 }, splits: { distributedCents: 0 } });
  });

  it('when the wallet balance is asked for with no chain configured, then it is NOT_CONFIGURED, and refused outright without the wallet capability', async () => {
    await expect(callSkill(skill, skillContext(alice.id, skill), { action: 'wallet_balance' })).rejects.toMatchObject({ code: 'NOT_CONFIGURED' });
    await expect(callSkill(skill, skillContext(alice.id, skill, []), { action: 'wallet_balance' })).rejects.toBeInstanceOf(SkillCapabilityDeniedError);
  });
});
