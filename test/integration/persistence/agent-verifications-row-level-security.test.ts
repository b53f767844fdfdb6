import { describe, expect, it } from 'vitest';
import { verifiedRecord } from '../../../src/domain/verification/verification.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { sqlAsUser } from '../../support/sql-as-user.js';

/** agent_verifications as the roles see it (migration 0016): the owner's records only; the system role reads. */
const { pools, uow } = await openTestPersistence();
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const aliceAgent = await uow.asUser(alice.id, (s) => s.agents.insert({ name: 'A', model: 'm', tier: null, config: {} }));
const record = verifiedRecord({ verificationType: 'walletprovider', attestationUid: null, verifierAddress: `0x${'ab'.repeat(20)}`, metadata: { message: 'm' }, at: new Date('2026-11-24T10:00:00Z') });

const asUser = sqlAsUser(pools);

describe('agent_verifications under row-level security', () => {
  it("when another user saves, reads or clears alice's agent's record, then nothing is written, seen or removed", async () => {
    expect(await uow.asUser(bob.id, (s) => s.agentVerifications.save(aliceAgent.id, record))).toBe(false);
    expect(await pools.owner.query(`select * from agent_verifications`)).toMatchObject({ rowCount: 0 });
    expect(await uow.asUser(alice.id, (s) => s.agentVerifications.save(aliceAgent.id, record))).toBe(true);
    expect(await uow.asUser(bob.id, (s) => s.agentVerifications.get(aliceAgent.id))).toBeNull();
    expect((await asUser(bob.id, `select count(*)::int as n from agent_verifications`)).rows[0].n).toBe(0);
    await uow.asUser(bob.id, (s) => s.agentVerifications.clear(aliceAgent.id));
    expect(await uow.asUser(alice.id, (s) => s.agentVerifications.get(aliceAgent.id))).toEqual(record);
    expect((await uow.asUser(alice.id, (s) => s.agents.get(aliceAgent.id)))).toMatchObject({ verified: true, verificationType: 'walletprovider', verifiedAt: record.verifiedAt });
  });

  it("when bob writes a row naming alice's agent, then row-level security or the (agent, owner) reference refuses it", async () => {
    const other = await uow.asUser(alice.id, (s) => s.agents.insert({ name: 'B', model: 'm', tier: null, config: {} }));
    await expect(asUser(bob.id, `insert into agent_verifications (agent_id, user_id, verification_type) values ($1, $2, 'ens')`, [other.id, alice.id])).rejects.toThrow(/row-level security/);
    await expect(asUser(bob.id, `insert into agent_verifications (agent_id, user_id, verification_type) values ($1, $2, 'ens')`, [other.id, bob.id])).rejects.toThrow(/foreign key/);
  });

  it('when the system role touches records, then it reads them and its agent reads carry them, but it cannot write', async () => {
    expect((await pools.system.query(`select count(*)::int as n from agent_verifications`)).rows[0].n).toBe(1);
    expect(await uow.asSystem((s) => s.agents.lock(aliceAgent.id))).toMatchObject({ verified: true, verificationType: 'walletprovider' });
    await expect(pools.system.query(`delete from agent_verifications`)).rejects.toThrow(/permission denied/);
  });

  it('when a record is cleared, or its agent deleted, then the agent reads as unverified and the row is gone', async () => {
    await uow.asUser(alice.id, (s) => s.agentVerifications.clear(aliceAgent.id));
    expect(await uow.asUser(alice.id, (s) => s.agents.get(aliceAgent.id))).toMatchObject({ verified: false, verificationType: null, attestationUid: null, verifiedAt: null });
    await uow.asUser(alice.id, (s) => s.agentVerifications.save(aliceAgent.id, record));
    await pools.owner.query(`delete from agents where id = $1`, [aliceAgent.id]);
    expect((await pools.owner.query(`select count(*)::int as n from agent_verifications`)).rows[0].n).toBe(0);
  });
});
