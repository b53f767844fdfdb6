import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ClaimedMessage } from '../../../src/application/ports/agent-mailbox.port.js';
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
  // running, as provisioning leaves them: only a running agent's messages are claimed
  await pools.owner.query(`update agents set status = 'running' where user_id = $1`, [user.id]);
  return { userId: user.id as UserId, agents };
}

/** Stores a user message and queues it, as POST /api/chat does. */
const queue = (userId: UserId, agentId: string, content: string) =>
  uow.asUser(userId, async (s) => {
    const m = await s.agentMessages.append({ agentId, userId, role: 'user', content, channel: 'web' });
    await s.agentMailbox.enqueue(m.id, agentId);
    return m;
  });

const claim = (userId: UserId, workerId = 'worker-a', claimId: string = randomUUID()) => uow.asSystem((s) => s.agentMailbox.claimNext(userId, { claimId, workerId }));
const answer = async (claimed: ClaimedMessage) =>
  (await uow.asSystem((s) => s.agentMailbox.answer(claimed, { content: 'ok', channel: 'web', model: 'openai/gpt-4o-mini' }, { durationMs: 1, at: new Date() }))) !== null;
/** Two MCP servers of the agent (one with an allowlist, one listing nothing yet), added in that order. */
const addMcpServers = async (agentId: string, userId: UserId) => {
  const tools = JSON.stringify([{ name: 'search', description: 'Searches', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }, { name: 'drop', inputSchema: {} }]);
  await pools.owner.query(
    `insert into agent_mcp_servers (id, agent_id, user_id, name, url, allowed_tools, tools, status, checked_at)
     values ($1, $3, $4, 'docs', 'https://mcp.example/docs', '{search}', $5::jsonb, 'ok', now()), ($2, $3, $4, 'empty', 'https://mcp.example/empty', null, '[]', 'error', now())`,
    [randomUUID(), randomUUID(), agentId, userId, tools],
  );
};
/** What an answer offers of the agent's servers, as the system's repository lists them. */
const mcpServersOf = (s: { agentMcpServers: { listForAgent(agentId: string): Promise<{ name: string; tools: unknown; allowedTools: string[] | null }[]> } }, agentId: string) =>
  s.agentMcpServers.listForAgent(agentId).then((list) => list.map(({ name, tools, allowedTools }) => ({ name, tools, allowedTools })));
const statusOf = async (messageId: string) => (await pools.owner.query(`select status, attempts, claimed_by from agent_mailbox where message_id = $1`, [messageId])).rows[0];

describe('the agent mailbox', () => {
  it('when the agent is removed while its answer is being stored, then neither deadlocks: the removal commits and the answer stores nothing', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    const m = await queue(userId, agent.id, 'hello');
    const claimed = (await claim(userId))!;
    expect(claimed.messageId).toBe(m.id);
    // the removal's order: the agent first (DELETE locks it), then its cascade the mailbox row
    const removal = await pools.owner.connect();
    try {
      await removal.query('BEGIN');
      await removal.query('SELECT 1 FROM agents WHERE id = $1 FOR UPDATE', [agent.id]);
      const answering = answer(claimed);
      // the answer is now waiting on the agent; had it locked its mailbox row first, the cascade
      // below would wait on it and PostgreSQL would abort one of the two (40P01) after deadlock_timeout
      await new Promise((r) => setTimeout(r, 300));
      await removal.query('DELETE FROM agents WHERE id = $1', [agent.id]);
      await removal.query('COMMIT');
      expect(await answering).toBe(false);
    } finally {
      removal.release();
    }
    expect(await statusOf(m.id)).toBeUndefined();
    expect((await pools.owner.query(`select count(*)::int as n from agent_messages where agent_id = $1`, [agent.id])).rows[0].n).toBe(0);
  });

  it('when the agent is removed while its failure is being stored, then neither deadlocks: the removal commits and the failure stores nothing', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    const m = await queue(userId, agent.id, 'hello');
    const claimed = (await claim(userId))!;
    const removal = await pools.owner.connect();
    try {
      await removal.query('BEGIN');
      await removal.query('SELECT 1 FROM agents WHERE id = $1 FOR UPDATE', [agent.id]);
      // as the answering use case fails a message: the mailbox row, then the event (its foreign key
      // locks the agent), in one transaction. Had the row been closed before the agent was locked,
      // the event would wait on the removal while the removal's cascade waited on the row (40P01).
      const failing = uow.asSystem(async (s) => {
        const closed = await s.agentMailbox.fail(claimed, { errorCode: 'PROVIDER_ERROR', error: 'down' });
        if (closed) await s.agentEvents.append({ agentId: agent.id, userId, kind: 'message_failed', durationMs: 1, reason: 'PROVIDER_ERROR: down', at: new Date() });
        return closed;
      });
      await new Promise((r) => setTimeout(r, 300));
      await removal.query('DELETE FROM agents WHERE id = $1', [agent.id]);
      await removal.query('COMMIT');
      expect(await failing).toBe(false);
    } finally {
      removal.release();
    }
    expect(await statusOf(m.id)).toBeUndefined();
    expect((await pools.owner.query(`select count(*)::int as n from agent_events where agent_id = $1`, [agent.id])).rows[0].n).toBe(0);
  });

  it('when many claimers race, then each agent has at most one message working, taken in arrival order', async () => {
    const { userId, agents } = await userWithAgents(2);
    const [a, b] = [agents[0]!, agents[1]!];
    const a1 = await queue(userId, a.id, 'a1');
    const a2 = await queue(userId, a.id, 'a2');
    const b1 = await queue(userId, b.id, 'b1');

    const claims = (await Promise.all(Array.from({ length: 8 }, () => claim(userId)))).filter((c) => c !== null);
    expect(claims.map((c) => c!.messageId).sort()).toEqual([a1.id, b1.id].sort());
    expect(await claim(userId)).toBeNull(); // a2 waits for a1

    const claimedA1 = claims.find((c) => c!.messageId === a1.id)!;
    expect(await answer(claimedA1)).toBe(true);
    expect(await answer(claimedA1)).toBe(false); // closed once
    const next = await claim(userId);
    expect(next).toMatchObject({ messageId: a2.id, agentId: a.id, content: 'a2', attempts: 1, othersQueued: false });
  });

  it('when an agent is not running, then its queued messages wait, with no attempt spent, and are claimed once it runs again', async () => {
    const { userId, agents } = await userWithAgents(2);
    const [a, b] = [agents[0]!, agents[1]!];
    const a1 = await queue(userId, a.id, 'a1');
    const b1 = await queue(userId, b.id, 'b1');
    await pools.owner.query(`update agents set status = 'error' where id = $1`, [a.id]);
    // b's message is claimed; a's is not, and does not count as another waiting one
    expect(await claim(userId)).toMatchObject({ messageId: b1.id, othersQueued: false });
    expect(await claim(userId)).toBeNull();
    expect(await statusOf(a1.id)).toMatchObject({ status: 'queued', attempts: 0 });
    // a repair marks it running again: its message is claimed, on its first attempt
    await pools.owner.query(`update agents set status = 'running' where id = $1`, [a.id]);
    expect(await claim(userId)).toMatchObject({ messageId: a1.id, attempts: 1 });
  });

  it('when a message is claimed, then the claim says whether another of the user\'s messages is queued (its worker claims again only then)', async () => {
    const { userId, agents } = await userWithAgents(2);
    const [a, b] = [agents[0]!, agents[1]!];
    await queue(userId, a.id, 'a1');
    await queue(userId, a.id, 'a2');
    await queue(userId, b.id, 'b1');
    const first = (await claim(userId))!;
    expect(first).toMatchObject({ content: 'a1', othersQueued: true });
    const second = (await claim(userId))!;
    expect(second).toMatchObject({ content: 'b1', othersQueued: true }); // a2 waits behind a1, still queued
    expect(await answer(first)).toBe(true);
    expect(await claim(userId)).toMatchObject({ content: 'a2', othersQueued: false });
  });

  it('when a message is claimed with its context, then the agent, history, skills, memory and MCP servers are what the repositories read', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    const owner = pools.owner;
    await owner.query(`update agents set config = '{"systemPrompt":"be kind","n":2}' where id = $1`, [agent.id]);
    await owner.query(`insert into agent_verifications (agent_id, user_id, verification_type, attestation_uid) values ($1, $2, 'eas', '0x' || repeat('ab', 32))`, [agent.id, userId]);
    await owner.query(`insert into skill_installs (agent_id, user_id, skill_id, version, enabled) values ($1, $2, 'calendar', '1.0.0', true), ($1, $2, 'notes', '2.1.0', false)`, [agent.id, userId]);
    await owner.query(`insert into agent_memory (agent_id, user_id, key, value) values ($1, $2, 'name', '"Ada"'), ($1, $2, '__proto__', '{"x":1}'), ($1, $2, 'n', '3')`, [agent.id, userId]);
    await addMcpServers(agent.id, userId);
    const session = await uow.asUser(userId, (s) => s.agentSessions.create(agent.id, userId));
    // an exchange in the default conversation and one in the session, then one question waiting in each
    for (const [content, sessionId] of [['q1', null], ['q2', session.id], ['q3', null]] as const) {
      const m = await uow.asUser(userId, async (s) => {
        const msg = await s.agentMessages.append({ agentId: agent.id, userId, role: 'user', content, channel: 'web', sessionId });
        await s.agentMailbox.enqueue(msg.id, agent.id);
        return msg;
      });
      const claimed = (await claim(userId))!;
      expect(claimed.messageId).toBe(m.id);
      expect(await answer(claimed)).toBe(true);
    }
    const inSession = await uow.asUser(userId, async (s) => {
      const msg = await s.agentMessages.append({ agentId: agent.id, userId, role: 'user', content: 'q4', channel: 'web', sessionId: session.id });
      await s.agentMailbox.enqueue(msg.id, agent.id);
      return msg;
    });
    await queue(userId, agent.id, 'q5');

    for (const [limit, expected] of [[3, inSession.id], [10, null]] as const) {
      const got = (await uow.statementsAsSystem((s) => s.agentMailbox.claimNextWithContext(userId, { claimId: randomUUID(), workerId: 'worker-a' }, limit)))!;
      if (expected) expect(got.claimed).toMatchObject({ messageId: expected, sessionId: session.id, content: 'q4', othersQueued: true });
      else expect(got.claimed).toMatchObject({ content: 'q5', sessionId: null, othersQueued: false });
      const read = await uow.asSystem(async (s) => ({
        agent: await s.agents.get(agent.id),
        history: await s.agentMessages.history(agent.id, limit, got.claimed.sessionId),
        installs: await s.agentSkills.listForAgent(agent.id),
        memory: await s.agentMemory.entriesOf(agent.id),
        mcpServers: await mcpServersOf(s, agent.id),
      }));
      expect({ agent: got.agent, history: got.history, installs: got.installs, memory: got.memory, mcpServers: got.mcpServers }).toEqual(read);
      expect(got.mcpServers.map((m) => m.name)).toEqual(['docs', 'empty']);
      expect(got.history.length).toBeGreaterThan(0);
      expect(got.agent).toMatchObject({ config: { systemPrompt: 'be kind', n: 2 }, verified: true, attestationUid: `0x${'ab'.repeat(32)}` });
      expect(Object.keys(got.memory).sort()).toEqual(['__proto__', 'n', 'name']);
      expect(await answer(got.claimed)).toBe(true);
    }
    expect(await uow.statementsAsSystem((s) => s.agentMailbox.claimNextWithContext(userId, { claimId: randomUUID(), workerId: 'worker-a' }, 10))).toBeNull();
  });

  it('when a message is answered, then its reply records the model that answered, and the history and the owner read it back', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    const q = await queue(userId, agent.id, 'which model?');
    const stored = await uow.asSystem(async (s) => s.agentMailbox.answer((await claim(userId))!, { content: 'this one', channel: 'web', model: 'fallback/model-b' }, { durationMs: 1, at: new Date() }));
    expect(stored).toMatchObject({ role: 'assistant', content: 'this one', model: 'fallback/model-b' });
    const page = await uow.asUser(userId, (s) => s.agentMessages.page(agent.id, 10, 0));
    expect(page.messages.map((m) => [m.content, m.model])).toEqual([['this one', 'fallback/model-b'], ['which model?', undefined]]);
    expect(page.messages.find((m) => m.id === q.id)?.model).toBeUndefined();
  });

  it('when a message is answered, then its reply carries the question\'s own time, to the microsecond, for the conversation order', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    const q = await queue(userId, agent.id, 'when?');
    expect(await answer((await claim(userId))!)).toBe(true);
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

  it('when a claim\'s result was lost (the claim committed, its answer never arrived), then it is handed back by the name given before claiming', async () => {
    const { userId, agents } = await userWithAgents(1);
    const m = await queue(userId, agents[0]!.id, 'lost in an outage');
    const claimId = randomUUID();
    await claim(userId, 'worker-a', claimId); // as if the answer to this statement had been lost
    expect(await statusOf(m.id)).toMatchObject({ status: 'working', claimed_by: 'worker-a' });
    expect(await uow.asSystem((s) => s.agentMailbox.retryLater(randomUUID(), 3, 'ANSWER_INTERRUPTED', 'x'))).toBeNull(); // another name: nothing
    expect(await uow.asSystem((s) => s.agentMailbox.retryLater(claimId, 3, 'ANSWER_INTERRUPTED', 'x'))).toBe('queued');
    expect(await statusOf(m.id)).toMatchObject({ status: 'queued', attempts: 1 });
  });

  it('when another worker took the instance over, then the gone worker\'s claims are queued again at once, and its late answer or failure writes nothing', async () => {
    const { userId, agents } = await userWithAgents(2);
    const [a, b] = [agents[0]!, agents[1]!];
    const ma = await queue(userId, a.id, 'a');
    const mb = await queue(userId, b.id, 'b');
    const gone = [(await claim(userId, 'worker-gone'))!, (await claim(userId, 'worker-gone'))!];
    expect(await uow.asSystem((s) => s.agentMailbox.requeueClaimsOfOthers(userId, 'worker-gone', 3, 'ANSWER_INTERRUPTED'))).toEqual({ requeued: 0, failed: 0 }); // its own
    expect(await uow.asSystem((s) => s.agentMailbox.requeueClaimsOfOthers(userId, 'worker-new', 3, 'ANSWER_INTERRUPTED'))).toEqual({ requeued: 2, failed: 0 });
    expect((await statusOf(ma.id)).status).toBe('queued');
    // the new owner claims them again; the old attempts' outcomes no longer land
    const fresh = [(await claim(userId, 'worker-new'))!, (await claim(userId, 'worker-new'))!];
    expect(fresh.map((c) => c.attempts)).toEqual([2, 2]);
    const [oldA, oldB] = [gone.find((c) => c.messageId === ma.id)!, gone.find((c) => c.messageId === mb.id)!];
    expect(await answer(oldA)).toBe(false);
    expect(await uow.asSystem((s) => s.agentMailbox.fail(oldB, { errorCode: 'X', error: 'late' }))).toBe(false);
    expect(await uow.asSystem((s) => s.agentMailbox.retryLater(oldB.claimId, 3, 'ANSWER_INTERRUPTED', 'x'))).toBeNull();
    expect(await answer(fresh.find((c) => c.messageId === ma.id)!)).toBe(true);
    const replies = await pools.owner.query(`select count(*)::int as n from agent_messages where agent_id = $1 and role = 'assistant'`, [a.id]);
    expect(replies.rows[0].n).toBe(1);
    expect((await statusOf(mb.id)).status).toBe('working');
  });

  it('when a message is stored claimed (its lane idle), then it is working under that claim with the context the claim would read (MCP servers included, read under the caller\'s identity), and the next waits its turn', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    const owner = pools.owner;
    await owner.query(`update agents set status = 'running', config = '{"systemPrompt":"be kind"}' where id = $1`, [agent.id]);
    await owner.query(`insert into skill_installs (agent_id, user_id, skill_id, version, enabled) values ($1, $2, 'calendar', '1.0.0', true)`, [agent.id, userId]);
    await owner.query(`insert into agent_memory (agent_id, user_id, key, value) values ($1, $2, 'name', '"Ada"'), ($1, $2, '__proto__', '{"x":1}')`, [agent.id, userId]);
    await addMcpServers(agent.id, userId);
    const session = await uow.asUser(userId, (s) => s.agentSessions.create(agent.id, userId));
    const sendClaimed = (content: string, sessionId: string | null, claimId = randomUUID(), historyLimit = 3) =>
      uow.writeAsUser(userId, 'sendAndClaim', { agentId: agent.id, content, channel: 'web', sessionId, claimId, workerId: 'worker-a', historyLimit });
    // an exchange in each conversation first, each answered by the claim it was stored with
    for (const [content, sessionId] of [['q1', null], ['q2', session.id], ['q3', null], ['q4', session.id]] as const) {
      const claimId = randomUUID();
      const sent = (await sendClaimed(content, sessionId, claimId))!;
      expect(sent.claimed!.claimed).toMatchObject({ messageId: sent.message.id, claimId, userId, agentId: agent.id, content, sessionId, attempts: 1, othersQueued: false });
      expect(await statusOf(sent.message.id)).toEqual({ status: 'working', attempts: 1, claimed_by: 'worker-a' });
      const read = await uow.asSystem(async (s) => ({
        agent: await s.agents.get(agent.id),
        history: await s.agentMessages.history(agent.id, 3, sessionId),
        installs: await s.agentSkills.listForAgent(agent.id),
        memory: await s.agentMemory.entriesOf(agent.id),
        mcpServers: await mcpServersOf(s, agent.id),
      }));
      const { agent: a, history, installs, memory, mcpServers } = sent.claimed!;
      expect({ agent: a, history, installs, memory, mcpServers }).toEqual(read);
      expect(mcpServers.map((m) => m.name)).toEqual(['docs', 'empty']);
      expect(history.every((m) => m.id !== sent.message.id)).toBe(true);
      expect(await answer(sent.claimed!.claimed)).toBe(true);
    }
    // while one is working, the next is queued (claimed by the lane after it), never a second answer at once
    const working = (await sendClaimed('q5', null))!;
    const waiting = (await sendClaimed('q6', null))!;
    expect(waiting.claimed).toBeNull();
    expect(await statusOf(waiting.message.id)).toEqual({ status: 'queued', attempts: 0, claimed_by: null });
    expect(await claim(userId)).toBeNull();
    expect(await answer(working.claimed!.claimed)).toBe(true);
    expect(await claim(userId)).toMatchObject({ messageId: waiting.message.id, content: 'q6' });
    // not the caller's agent: nothing stored
    const other = await userWithAgents(1);
    expect(await uow.writeAsUser(other.userId, 'sendAndClaim', { agentId: agent.id, content: 'x', channel: 'web', sessionId: null, claimId: randomUUID(), workerId: 'w', historyLimit: 3 })).toBeNull();
  });

  it('when messages to one agent are stored claimed at once, then one of them is working and the others are queued in order behind it', async () => {
    const { userId, agents } = await userWithAgents(1);
    const agent = agents[0]!;
    await pools.owner.query(`update agents set status = 'running' where id = $1`, [agent.id]);
    const sent = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        uow.writeAsUser(userId, 'sendAndClaim', { agentId: agent.id, content: `m${i}`, channel: 'web', sessionId: null, claimId: randomUUID(), workerId: 'worker-a', historyLimit: 5 }),
      ),
    );
    const claimedOnes = sent.filter((x) => x!.claimed !== null);
    expect(claimedOnes).toHaveLength(1);
    const { rows } = await pools.owner.query(`select status, count(*)::int as n from agent_mailbox where agent_id = $1 group by status order by status`, [agent.id]);
    expect(rows).toEqual([{ status: 'queued', n: 7 }, { status: 'working', n: 1 }]);
    expect(await claim(userId)).toBeNull();
    expect(await answer(claimedOnes[0]!.claimed!.claimed)).toBe(true);
    const first = (await pools.owner.query(`select message_id from agent_mailbox where agent_id = $1 and status = 'queued' order by seq limit 1`, [agent.id])).rows[0].message_id;
    expect((await claim(userId))!.messageId).toBe(first);
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
    // inserted only queued, or working under a named first claim (hot_send_and_claim, decision 0368)
    await expect(asUser(alice.userId, `insert into agent_mailbox (message_id, agent_id, user_id, status) values ($1, $2, $3, 'answered')`, [m.id, alice.agents[0]!.id, alice.userId])).rejects.toThrow(
      /row-level security/,
    );
    await expect(asUser(alice.userId, `insert into agent_mailbox (message_id, agent_id, user_id, status) values ($1, $2, $3, 'working')`, [m.id, alice.agents[0]!.id, alice.userId])).rejects.toThrow(
      /row-level security/,
    );
    await expect(
      asUser(alice.userId, `insert into agent_mailbox (message_id, agent_id, user_id, reply_message_id) values ($1, $2, $3, $1)`, [m.id, alice.agents[0]!.id, alice.userId]),
    ).rejects.toThrow(/permission denied/);
    const bobMessage = await uow.asUser(bob.userId, (s) => s.agentMessages.append({ agentId: bob.agents[0]!.id, userId: bob.userId, role: 'user', content: 'x', channel: 'web' }));
    await expect(asUser(alice.userId, `insert into agent_mailbox (message_id, agent_id, user_id) values ($1, $2, $3)`, [bobMessage.id, bob.agents[0]!.id, bob.userId])).rejects.toThrow(/row-level security/);
  });
});
