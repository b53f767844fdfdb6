import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { InstantSplitSkill } from '../../../src/application/skills/handlers/instant-split/instant-split.skill.js';
import { SkillCapabilityDeniedError } from '../../../src/application/skills/skill.errors.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { callSkill, skillContext } from '../../support/skills.js';
import { walletPorts } from '../../support/wallets.js';

const { uow, pools } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const wallets = walletPorts(uow);
const skill = new InstantSplitSkill(uow, wallets.signer, wallets.balances, wallets.sendPayouts);
const asAlice = skillContext(alice.id, skill);
const asBob = skillContext(bob.id, skill);
const counts = async () => (await pools.owner.query('select (select count(*) from skill_split_rules)::int as rules, (select count(*) from skill_split_executions)::int as runs')).rows[0];

const splits = [
  { recipientAddress: '0xA', percentage: 50, role: 'artist', name: 'Ana' },
  { recipientAddress: '0xB', percentage: 33.33, role: 'producer', name: 'Bo' },
  { recipientAddress: '0xC', percentage: 16.67, role: 'manager', name: 'Cy' },
];

describe('instant-split skill', () => {
  let splitId = '';

  it('when a rule is created and amounts executed, then below the threshold they wait as pending and at the threshold the whole pending amount is split exactly', async () => {
    const created = await callSkill(skill, asAlice, { action: 'create_split_rule', splits, threshold: 100 });
    splitId = (created.splitRule as { splitId: string }).splitId;
    expect(created.splitRule).toMatchObject({ thresholdCents: 10_000, pendingCents: 0, splits: [{ percentage: 50 }, { percentage: 33.33 }, { percentage: 16.67 }] });

    expect(await callSkill(skill, asAlice, { action: 'execute_split', splitId, amount: 60.5 })).toMatchObject({ executed: false, pendingCents: 6050 });
    expect(await callSkill(skill, asAlice, { action: 'list_pending' })).toMatchObject({ count: 1, totalPendingCents: 6050 });

    // 60.50 + 39.51 = 100.01 reaches the threshold: 10001 cents split 50 / 33.33 / 16.67 → 5000.5, 3333.33, 1667.17; the cent left goes to the largest remainder
    const done = await callSkill(skill, asAlice, { action: 'execute_split', splitId, amount: 39.51 });
    expect(done).toMatchObject({ executed: true, pendingCents: 0 });
    const execution = done.execution as { amountCents: number; allocations: { recipientAddress: string; amountCents: number }[] };
    expect(execution.amountCents).toBe(10_001);
    expect(execution.allocations.map((a) => [a.recipientAddress, a.amountCents])).toEqual([['0xA', 5001], ['0xB', 3333], ['0xC', 1667]]);
    expect(await callSkill(skill, asAlice, { action: 'list_pending' })).toMatchObject({ count: 0, totalPendingCents: 0 });

    await callSkill(skill, asAlice, { action: 'execute_split', splitId, amount: 200 });
    expect(await callSkill(skill, asAlice, { action: 'get_balance', splitId })).toEqual({
      splitId, distributedCents: 30_001, pendingCents: 0, executions: 2,
      recipients: [{ recipientAddress: '0xA', amountCents: 15_001 }, { recipientAddress: '0xB', amountCents: 9999 }, { recipientAddress: '0xC', amountCents: 5001 }],
    });
  });

  it('when revenue is simulated, then gross is streams × rate in cents and its split sums exactly, with nothing stored', async () => {
    const before = await counts();
    expect(await callSkill(skill, asAlice, { action: 'simulate', streams: 1_000_000, rate: 0.0034, splitId })).toMatchObject({
      grossCents: 340_000, allocations: [{ amountCents: 170_000 }, { amountCents: 113_322 }, { amountCents: 56_678 }],
    });
    const r = await callSkill(skill, asAlice, { action: 'simulate', streams: 333, rate: 0.0034, splits });
    expect(r.grossCents).toBe(113);
    expect((r.allocations as { amountCents: number }[]).reduce((a, x) => a + x.amountCents, 0)).toBe(113);
    expect((await callSkill(skill, asAlice, { action: 'simulate', streams: 10, rate: 0.5 })).allocations).toBeNull();
    expect(await counts()).toEqual(before);
  });

  it('when percentages do not sum to 100, have more than 2 decimals, or amounts are malformed, then the input is refused and nothing changes', async () => {
    const before = await counts();
    const bad: Record<string, unknown>[] = [
      { action: 'create_split_rule', splits: [{ ...splits[0], percentage: 60 }, splits[1], splits[2]] },
      { action: 'create_split_rule', splits: [{ ...splits[0], percentage: 49.995 }, splits[1], { ...splits[2], percentage: 16.675 }] },
      { action: 'create_split_rule', splits: [] },
      { action: 'create_split_rule', splits: [{ recipientAddress: '0xA', percentage: 100, role: 'artist' }] },
      { action: 'execute_split', splitId, amount: 0 },
      { action: 'execute_split', splitId, amount: 1.234 },
      { action: 'execute_split', amount: 1 },
      { action: 'simulate', streams: 1.5, rate: 0.1 },
      { action: 'simulate', streams: 10, rate: 0.00000001 },
    ];
    for (const body of bad) await expect(callSkill(skill, asAlice, body), JSON.stringify(body)).rejects.toBeInstanceOf(ZodError);
    await expect(callSkill(skill, asAlice, { action: 'execute_split', splitId: 'not-a-rule', amount: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await counts()).toEqual(before);
  });

  it("when another user executes, reads or simulates with alice's rule, then it is not found and nothing changes", async () => {
    const before = await counts();
    await expect(callSkill(skill, asBob, { action: 'execute_split', splitId, amount: 1000 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(callSkill(skill, asBob, { action: 'get_balance', splitId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(callSkill(skill, asBob, { action: 'simulate', streams: 1, rate: 1, splitId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await callSkill(skill, asBob, { action: 'list' })).toEqual({ splitRules: [], count: 0 });
    expect(await callSkill(skill, asBob, { action: 'get_balance' })).toMatchObject({ distributedCents: 0, recipients: [] });
    expect(await counts()).toEqual(before);
  });

  it('when concurrent amounts are executed on one rule, then none is lost: every cent is either pending or split', async () => {
    const created = await callSkill(skill, asAlice, { action: 'create_split_rule', splits, threshold: 5 });
    const id = (created.splitRule as { splitId: string }).splitId;
    await Promise.all(Array.from({ length: 8 }, () => callSkill(skill, asAlice, { action: 'execute_split', splitId: id, amount: 1.25 })));
    const balance = await callSkill(skill, asAlice, { action: 'get_balance', splitId: id });
    expect((balance.distributedCents as number) + (balance.pendingCents as number)).toBe(1000);
    expect(balance.distributedCents).toBe(1000);
  });

  it('when the context does not allow payments, then execute_split is refused and nothing is recorded', async () => {
    const before = await counts();
    await expect(callSkill(skill, skillContext(alice.id, skill, []), { action: 'execute_split', splitId, amount: 500 })).rejects.toBeInstanceOf(SkillCapabilityDeniedError);
    expect(await counts()).toEqual(before);
  });
});
