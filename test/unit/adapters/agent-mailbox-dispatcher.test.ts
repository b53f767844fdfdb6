import { describe, expect, it } from 'vitest';
import { AgentMailboxDispatcher } from '../../../src/adapters/inbound/jobs/agent-mailbox-dispatcher.js';
import type { AnswerNextAgentMessage, AnswerResult } from '../../../src/application/agents/answer-next-agent-message.use-case.js';
import type { FindAgentMailboxWork } from '../../../src/application/agents/find-agent-mailbox-work.use-case.js';
import type { MailboxSignal, MailboxSignals } from '../../../src/application/ports/agent-mailbox.port.js';
import type { AgentRuntime } from '../../../src/application/ports/agent-runtime.port.js';
import type { UserId } from '../../../src/domain/shared/ids.js';

const user = 'u1' as UserId;
const log = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The dispatcher with the mailbox step replaced by a script of results: each claim takes the next
 * one (`idle` once the script is done); `during(n)` runs while the n-th claim is being answered.
 */
function setup(script: AnswerResult[], during: (claim: number) => void = () => {}, lanesPerUser = 4) {
  let claims = 0;
  const seen: { claimId: string; claimed?: unknown }[] = [];
  const released: string[] = [];
  const listeners = new Set<(s: MailboxSignal) => void>();
  const signals = {
    start: async () => {},
    subscribe: (l: (s: MailboxSignal) => void) => (listeners.add(l), () => listeners.delete(l)),
  } as unknown as MailboxSignals;
  const answer = {
    execute: async (_userId: UserId, opts: { claimId: string; claimed?: unknown }) => {
      seen.push(opts);
      const n = ++claims;
      await new Promise((r) => setImmediate(r));
      during(n);
      return script[n - 1] ?? { kind: 'idle' };
    },
    releaseClaim: async (claimId: string) => void released.push(claimId),
  } as unknown as AnswerNextAgentMessage;
  const findWork = { execute: async () => [] } as unknown as FindAgentMailboxWork;
  const runtime = { isRunning: () => true } as unknown as AgentRuntime;
  const dispatcher = new AgentMailboxDispatcher(answer, findWork, signals, runtime, log as never, { pollMs: 60_000, lanesPerUser, workerId: 'w-test' });
  const announce = () => listeners.forEach((l) => l({ kind: 'queued', userId: user, agentId: 'a1' }));
  return { dispatcher, announce, claims: () => claims, seen, released };
}

const answered = (othersQueued: boolean): AnswerResult => ({ kind: 'answered', agentId: 'a1', messageId: 'm', othersQueued });

describe('the mailbox dispatcher\'s lanes', () => {
  it('after an answer with nothing else queued and nothing announced since its claim, claims no more', async () => {
    const { dispatcher, announce, claims } = setup([answered(false)]);
    await dispatcher.start();
    announce();
    await expect.poll(claims).toBe(1);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(claims()).toBe(1); // no claim that would find nothing
    await dispatcher.stop();
  });

  it('claims again when the claim saw another message queued (a backlog drains without the sweep)', async () => {
    const { dispatcher, announce, claims } = setup([answered(true), answered(true), answered(false)]);
    await dispatcher.start();
    announce();
    await expect.poll(claims).toBe(3);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(claims()).toBe(3);
    await dispatcher.stop();
  });

  it('claims again when a message was announced while one was being answered and no other lane could start', async () => {
    let announce!: () => void;
    const s = setup(
      [answered(false), answered(false)],
      (n) => {
        if (n === 1) announce(); // queued after the first claim's snapshot; its kick finds the one lane busy
      },
      1,
    );
    announce = s.announce;
    await s.dispatcher.start();
    announce();
    await expect.poll(s.claims).toBe(2);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(s.claims()).toBe(2);
    await s.dispatcher.stop();
  });

  it('a lane held for a message stored claimed answers that work first, without a claim, and is then free again', async () => {
    const { dispatcher, claims, seen } = setup([answered(false)], () => {}, 1);
    await dispatcher.start();
    const held = dispatcher.hold(user)!;
    expect(held).toMatchObject({ workerId: 'w-test' });
    expect(dispatcher.hold(user)).toBeNull(); // the user's one lane is held
    const work = { claimed: { claimId: held.claimId } } as never;
    held.answer(work);
    await expect.poll(claims).toBe(1);
    expect(seen[0]).toMatchObject({ claimId: held.claimId, claimed: work });
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(claims()).toBe(1);
    const again = dispatcher.hold(user);
    expect(again).not.toBeNull();
    again!.release();
    await dispatcher.stop();
  });

  it('a held lane given back claims only when a message was announced while it was held (that kick found no lane free)', async () => {
    const s = setup([answered(false)], () => {}, 1);
    await s.dispatcher.start();
    s.dispatcher.hold(user)!.release();
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(s.claims()).toBe(0);

    const held = s.dispatcher.hold(user)!;
    s.announce(); // dropped: the one lane is held
    held.release();
    await expect.poll(s.claims).toBe(1);
    expect(s.seen[0]!.claimed).toBeUndefined();
    await s.dispatcher.stop();
  });

  it('a message stored claimed after the stop began is handed back at once, not answered', async () => {
    const s = setup([answered(false)]);
    await s.dispatcher.start();
    const held = s.dispatcher.hold(user)!;
    await s.dispatcher.stop();
    held.answer({ claimed: { claimId: held.claimId } } as never);
    await expect.poll(() => s.released).toEqual([held.claimId]);
    expect(s.claims()).toBe(0);
    expect(s.dispatcher.hold(user)).toBeNull();
  });
});
