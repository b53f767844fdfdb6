import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';

/**
 * The history a delivery carries (SystemAgentMessageRepository.history): the last `limit`
 * messages in conversation order, a reply right after its question even when later questions
 * were stored while it was being made, messages still waiting left out. The read is bounded to
 * the recent messages; here it is checked against the whole-history ordering it must equal.
 */
const { pools, uow } = await openTestPersistence();
const owner = pools.owner;

/** The unbounded ordering: every message of the agent (and session), sorted, the last `limit`. */
async function reference(agentId: string, limit: number, sessionId: string | null): Promise<string[]> {
  const { rows } = await owner.query<{ id: string }>(
    `SELECT m.id FROM agent_messages m
       LEFT JOIN agent_mailbox answered ON answered.reply_message_id = m.id
       LEFT JOIN agent_messages q ON q.id = answered.message_id
      WHERE m.agent_id = $1 AND m.role IN ('user', 'assistant') AND m.session_id IS NOT DISTINCT FROM $3::uuid
        AND NOT EXISTS (SELECT 1 FROM agent_mailbox w WHERE w.message_id = m.id AND w.status IN ('queued', 'working'))
      ORDER BY coalesce(q.created_at, m.created_at) DESC, (m.role = 'assistant') DESC, m.created_at DESC, m.id DESC
      LIMIT $2`,
    [agentId, limit, sessionId],
  );
  return rows.map((r) => r.id).reverse();
}

async function newAgent() {
  const user = await insertUser(uow);
  const { rows } = await owner.query<{ id: string }>(`INSERT INTO agents (user_id, name, model, status) VALUES ($1, 'History', 'm', 'running') RETURNING id`, [user.id]);
  return { userId: user.id as string, agentId: rows[0]!.id };
}

/** Stores messages at given seconds past a base time: questions (with their mailbox state) and replies to them. */
function conversation(a: { userId: string; agentId: string }, sessionId: string | null = null) {
  const base = Date.parse('2026-06-01T00:00:00Z');
  const at = (s: number) => new Date(base + s * 1000);
  const insert = async (role: string, s: number) =>
    (await owner.query<{ id: string }>(
      `INSERT INTO agent_messages (agent_id, user_id, role, content, session_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [a.agentId, a.userId, role, `${role} at ${s}`, sessionId, at(s)],
    )).rows[0]!.id;
  return {
    async question(s: number, status: 'queued' | 'answered' | 'failed' = 'answered') {
      const id = await insert('user', s);
      await owner.query(`INSERT INTO agent_mailbox (message_id, agent_id, user_id, status) VALUES ($1, $2, $3, $4)`, [id, a.agentId, a.userId, status]);
      return id;
    },
    async reply(questionId: string, s: number) {
      // as SystemMailbox.answer stores it: pointed at by the mailbox row, carrying its question's time
      const id = await insert('assistant', s);
      await owner.query(`UPDATE agent_mailbox SET reply_message_id = $2 WHERE message_id = $1`, [questionId, id]);
      await owner.query(`UPDATE agent_messages SET question_at = (SELECT created_at FROM agent_messages WHERE id = $1) WHERE id = $2`, [questionId, id]);
      return id;
    },
    /** A message outside the mailbox (another channel's, or one the agent said on its own). */
    loose: (role: 'user' | 'assistant', s: number) => insert(role, s),
  };
}

const history = (agentId: string, limit: number, sessionId: string | null = null) =>
  uow.asSystem((s) => s.agentMessages.history(agentId, limit, sessionId)).then((ms) => ms.map((m) => m.id));

describe('agent history for a delivery', () => {
  it('when replies arrive after later questions, then every page size gives the whole-history ordering', async () => {
    const a = await newAgent();
    const c = conversation(a);
    // q1 answered at once; q2 and q3 asked before q2's reply; q4 failed; q5 answered late, after q6; q7 still queued
    const q1 = await c.question(0);
    await c.reply(q1, 1);
    const q2 = await c.question(2);
    await c.question(3);
    await c.reply(q2, 4);
    await c.question(5, 'failed');
    const q5 = await c.question(6);
    const q6 = await c.question(7);
    await c.reply(q6, 8);
    await c.reply(q5, 9);
    await c.loose('assistant', 10);
    await c.question(11, 'queued');
    await c.loose('user', 12);
    for (let limit = 1; limit <= 16; limit++) expect(await history(a.agentId, limit), `limit ${limit}`).toEqual(await reference(a.agentId, limit, null));
    expect(await history(a.agentId, 3)).toHaveLength(3);
  });

  it('when many questions were answered much later than asked, then the page still matches the whole-history ordering', async () => {
    const a = await newAgent();
    const c = conversation(a);
    const asked: string[] = [];
    for (let i = 0; i < 30; i++) asked.push(await c.question(i));
    // answered in reverse, long after
    for (let i = 0; i < 30; i++) await c.reply(asked[29 - i]!, 100 + i);
    for (const limit of [1, 2, 5, 10, 20, 59, 60, 61]) expect(await history(a.agentId, limit), `limit ${limit}`).toEqual(await reference(a.agentId, limit, null));
  });

  it("when messages belong to a session, then the session's page and the sessionless page each match their ordering", async () => {
    const a = await newAgent();
    const { rows } = await owner.query<{ id: string }>(`INSERT INTO agent_sessions (agent_id, user_id) VALUES ($1, $2) RETURNING id`, [a.agentId, a.userId]);
    const sessionId = rows[0]!.id;
    const main = conversation(a);
    const side = conversation(a, sessionId);
    for (let i = 0; i < 8; i++) {
      const q = await (i % 2 ? side : main).question(i * 10);
      await (i % 2 ? side : main).reply(q, i * 10 + 15);
    }
    for (const limit of [1, 3, 4, 8, 20]) {
      expect(await history(a.agentId, limit, sessionId)).toEqual(await reference(a.agentId, limit, sessionId));
      expect(await history(a.agentId, limit, null)).toEqual(await reference(a.agentId, limit, null));
    }
  });

  it('when the limit is zero, then the history is empty', async () => {
    const a = await newAgent();
    await conversation(a).question(0);
    expect(await history(a.agentId, 0)).toEqual([]);
  });
});
