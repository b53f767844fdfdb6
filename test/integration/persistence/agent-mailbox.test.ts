import { describe, expect, it } from 'vitest';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { sqlAsUser } from '../../support/sql-as-user.js';

/**
 * The agents' mailbox (migration 0010) through its repositories: the claim keeps one answer at a
 * time per agent and the arrival order, under concurrent claimers; interrupted answers are
 * recovered; the request role sees and queues only its own.
 */
const { pools, uow } = await openTestPersistence();

async function userWithAgents(n: number) {
  const user = await insertUser(uow);
  const agents = [];
  for (let i = 0; i < n; i++) agents.push(await uow.asUser(user.id, (s) => s.agents.insert({ name: `A${i}`, model: 'm', tier: null, config: {} })));
  return { userId: user.id as UserId, agents };
}

/** Stores a user message and queues it, as POST /api/chat does. */
const queue = (userId: UserId, agentId: string, content: string) =>
  uow.asUser(userId, async (s) => {
    const m = await s.agentMessages.append({ agentId, userId, role: 'user', content, channel: 'web' });
    await s.agentMailbox.enqueue(m.id, agentId);
    return m;
  });

const claim = (userId: UserId) => uow.asSystem((s) => s.agentMailbox.claimNext(userId));
const answer = async (userId: UserId, agentId: string, messageId: string) =>
  (await uow.asSystem((s) => s.agentMailbox.answer({ messageId, agentId, userId, sessionId: null }, { content: 'ok', channel: 'web' }, { durationMs: 1, at: new Date() }))) !== null;

describe('the agent mailbox', () => {
  it('when many claimers race, then each agent has at most one message working, taken in arrival order', async () => {
    const { userId, agents } = await userWithAgents(2);
    const [a, b] = [agents[0]!, agents[1]!];
    const a1 = await queue(userId, a.id, 'a1');
    const a2 = await queue(userId, a.id, 'a2');
    const b1 = await queue(userId, b.id, 'b1');

    const claims = (await Promise.all(Array.from({ length: 8 }, () => claim(userId)))).filter((c) => c !== null);
    expect(claims.map((c) => c!.messageId).sort()).toEqual([a1.id, b1.id].sort());
    expect(await claim(userId)).toBeNull(); // a2 waits for a1

    expect(await answer(userId, a.id, a1.id)).toBe(true);
    expect(await answer(userId, a.id, a1.id)).toBe(false); // closed once
    const next = await claim(userId);
    expect(next).toMatchObject({ messageId: a2.id, agentId: a.id, content: 'a2', attempts: 1 });
  });

  it('when a message is answered, then its reply carries the question\'s own time, to the microsecond, for the conversation order', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    const q = await queue(userId, agent.id, 'when?');
    await claim(userId);
    expect(await answer(userId, agent.id, q.id)).toBe(true);
    const { rows } = await pools.owner.query(
      `SELECT r.question_at = m.created_at AS exact, r.created_at > m.created_at AS later
         FROM agent_mailbox b JOIN agent_messages m ON m.id = b.message_id JOIN agent_messages r ON r.id = b.reply_message_id
        WHERE b.message_id = $1`,
      [q.id],
    );
    expect(rows).toEqual([{ exact: true, later: true }]);
  });

  it('when an answer was interrupted (its worker died), then the sweep queues it again, and fails it after the last attempt', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    const m = await queue(userId, agent.id, 'lost');
    const future = new Date(Date.now() + 60_000);
    for (let attempt = 1; attempt <= 2; attempt++) {
      expect((await claim(userId))?.attempts).toBe(attempt);
      // an answer still in progress in this process is left alone
      expect(await uow.asSystem((s) => s.agentMailbox.recoverStale(userId, future, [agent.id], 2, 'ANSWER_INTERRUPTED'))).toEqual({ requeued: 0, failed: 0 });
      const expected = attempt < 2 ? { requeued: 1, failed: 0 } : { requeued: 0, failed: 1 };
      expect(await uow.asSystem((s) => s.agentMailbox.recoverStale(userId, future, [], 2, 'ANSWER_INTERRUPTED'))).toEqual(expected);
    }
    expect(await uow.asUser(userId, (s) => s.agentMailbox.outcome(m.id))).toMatchObject({ status: 'failed', errorCode: 'ANSWER_INTERRUPTED' });
    expect(await uow.asSystem((s) => s.agentMailbox.usersWithWork(100))).not.toContain(userId);
  });

  it('when the request role reads or writes the mailbox, then only its own rows, only queued, and never the state', async () => {
    const alice = await userWithAgents(1);
    const bob = await userWithAgents(1);
    const m = await queue(alice.userId, alice.agents[0]!.id, 'private');
    expect(await uow.asUser(bob.userId, (s) => s.agentMailbox.outcome(m.id))).toBeNull();
    expect(await uow.asUser(alice.userId, (s) => s.agentMailbox.outcome(m.id))).toMatchObject({ status: 'queued' });

    const asUser = sqlAsUser(pools);
    expect((await asUser(bob.userId, `select count(*)::int as n from agent_mailbox`)).rows[0].n).toBe(0);
    await expect(asUser(alice.userId, `update agent_mailbox set status = 'answered'`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.userId, `delete from agent_mailbox`)).rejects.toThrow(/permission denied/);
    await expect(asUser(alice.userId, `insert into agent_mailbox (message_id, agent_id, user_id, status) values ($1, $2, $3, 'answered')`, [m.id, alice.agents[0]!.id, alice.userId])).rejects.toThrow(
      /permission denied/,
    );
    const bobMessage = await uow.asUser(bob.userId, (s) => s.agentMessages.append({ agentId: bob.agents[0]!.id, userId: bob.userId, role: 'user', content: 'x', channel: 'web' }));
    await expect(asUser(alice.userId, `insert into agent_mailbox (message_id, agent_id, user_id) values ($1, $2, $3)`, [bobMessage.id, bob.agents[0]!.id, bob.userId])).rejects.toThrow(/row-level security/);
  });
});
