import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { BookingSettlementSkill } from '../../../src/application/skills/handlers/booking-settlement/booking-settlement.skill.js';
import { SkillCapabilityDeniedError } from '../../../src/application/skills/skill.errors.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { callSkill, skillContext } from '../../support/skills.js';

const { uow, pools } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const skill = new BookingSettlementSkill(uow);
const asAlice = skillContext(alice.id, skill);
const asBob = skillContext(bob.id, skill);
const rows = async () => (await pools.owner.query('select booking_id, status, amount_cents::int as cents from skill_escrows order by created_at')).rows;

describe('booking-settlement skill', () => {
  it('when an escrow is created, then it holds guarantee + backend in cents, and get and list return it', async () => {
    const created = await callSkill(skill, asAlice, { action: 'create_escrow', bookingId: 'bk-1', booking: { guarantee: 5000, backend: 1250.5, deposit: 2500 } });
    expect(created.escrow).toMatchObject({ bookingId: 'bk-1', status: 'held', amountCents: 625_050, guaranteeCents: 500_000, backendCents: 125_050, depositCents: 250_000, releasedAt: null });
    expect((await callSkill(skill, asAlice, { action: 'get', bookingId: 'bk-1' })).escrow).toEqual(created.escrow);
    expect(await callSkill(skill, asAlice, { action: 'list' })).toMatchObject({ count: 1, escrows: [created.escrow] });
  });

  it('when the same booking is escrowed twice, then the second is refused with ESCROW_EXISTS and the first is unchanged', async () => {
    await expect(callSkill(skill, asAlice, { action: 'create_escrow', bookingId: 'bk-1', booking: { guarantee: 1, backend: 0, deposit: 0 } }))
      .rejects.toMatchObject({ code: 'ESCROW_EXISTS' });
    expect(await rows()).toEqual([{ booking_id: 'bk-1', status: 'held', cents: 625_050 }]);
  });

  it('when funds are released twice, then the escrow is released once and the second call reports it already was', async () => {
    const first = await callSkill(skill, asAlice, { action: 'release_funds', bookingId: 'bk-1' });
    expect(first).toMatchObject({ alreadyReleased: false, escrow: { status: 'released' } });
    const second = await callSkill(skill, asAlice, { action: 'release_funds', bookingId: 'bk-1' });
    expect(second).toMatchObject({ alreadyReleased: true, escrow: { status: 'released', releasedAt: (first.escrow as { releasedAt: string }).releasedAt } });
    await expect(callSkill(skill, asAlice, { action: 'release_funds', bookingId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when a settlement is simulated, then payout, balance due and refund follow the formula and nothing is stored', async () => {
    const before = await rows();
    expect(await callSkill(skill, asAlice, { action: 'simulate_settlement', booking: { guarantee: 1000, backend: 333.33, deposit: 500 } })).toEqual({
      settlement: { guaranteeCents: 100_000, backendCents: 33_333, depositCents: 50_000, payoutCents: 133_333, balanceDueCents: 83_333, refundDueCents: 0, currency: 'USD' },
    });
    expect(await rows()).toEqual(before);
  });

  it('when amounts have sub-cent digits, are negative or missing, then the input is refused and nothing is stored', async () => {
    const before = await rows();
    for (const booking of [{ guarantee: 1.001, backend: 0, deposit: 0 }, { guarantee: -1, backend: 0, deposit: 0 }, { guarantee: 1, backend: 0 }, { guarantee: '1', backend: 0, deposit: 0 }]) {
      await expect(callSkill(skill, asAlice, { action: 'create_escrow', bookingId: 'bk-bad', booking }), JSON.stringify(booking)).rejects.toBeInstanceOf(ZodError);
    }
    await expect(callSkill(skill, asAlice, { action: 'create_escrow', booking: { guarantee: 1, backend: 0, deposit: 0 } })).rejects.toBeInstanceOf(ZodError);
    expect(await rows()).toEqual(before);
  });

  it("when another user reads or releases alice's escrow, then it is not found and stays as it was", async () => {
    await callSkill(skill, asAlice, { action: 'create_escrow', bookingId: 'bk-2', booking: { guarantee: 10, backend: 0, deposit: 0 } });
    await expect(callSkill(skill, asBob, { action: 'get', bookingId: 'bk-2' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(callSkill(skill, asBob, { action: 'release_funds', bookingId: 'bk-2' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await callSkill(skill, asBob, { action: 'list' })).toEqual({ escrows: [], count: 0 });
    // bob may use the same booking id for his own escrow
    await callSkill(skill, asBob, { action: 'create_escrow', bookingId: 'bk-2', booking: { guarantee: 20, backend: 0, deposit: 0 } });
    expect((await callSkill(skill, asAlice, { action: 'get', bookingId: 'bk-2' })).escrow).toMatchObject({ status: 'held', amountCents: 1000 });
  });

  it('when the context does not allow payments, then creating or releasing an escrow is refused before anything is stored', async () => {
    const denied = skillContext(alice.id, skill, []);
    const before = await rows();
    await expect(callSkill(skill, denied, { action: 'create_escrow', bookingId: 'bk-3', booking: { guarantee: 1, backend: 0, deposit: 0 } })).rejects.toBeInstanceOf(SkillCapabilityDeniedError);
    await expect(callSkill(skill, denied, { action: 'release_funds', bookingId: 'bk-2' })).rejects.toBeInstanceOf(SkillCapabilityDeniedError);
    expect(await rows()).toEqual(before);
  });
});
