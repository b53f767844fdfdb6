import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { MailboxSignal } from '../../../src/application/ports/agent-mailbox.port.js';
import type { AgentMessage } from '../../../src/application/ports/agent-message-repository.port.js';
import { PgMailboxSignals } from '../../../src/adapters/outbound/persistence/pg-mailbox-signals.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { cleanUpLater } from '../../support/cleanup.js';
import { openTestPersistence } from '../../support/persistence.js';

/**
 * PgMailboxSignals where the NOTIFY (on the listening connection) and this process's own news of
 * the same event (the store's result, on another connection) arrive in either order: a waiting
 * request is woken once, with the reply when this process answered; a queued message is announced
 * once here.
 */
const { db, pools } = await openTestPersistence();
const signals = new PgMailboxSignals(pools.owner, { connectionString: db.url }, { warn: () => {} });
cleanUpLater(() => signals.stop());
await signals.start();

const heard: MailboxSignal[] = [];
signals.subscribe((s) => heard.push(s));

const notify = (payload: object) => pools.owner.query(`SELECT pg_notify('agent_mailbox', $1)`, [JSON.stringify(payload)]);
/** Until the listener has heard `n` signals matching `match`. */
async function heardAt(n: number, match: (s: MailboxSignal) => boolean): Promise<void> {
  for (let i = 0; i < 200 && heard.filter(match).length < n; i++) await new Promise((r) => setTimeout(r, 10));
  expect(heard.filter(match)).toHaveLength(n);
}

const reply = (messageId: string): AgentMessage => ({ id: randomUUID(), agentId: randomUUID(), role: 'assistant', content: `reply to ${messageId}`, channel: 'web', sessionId: null, createdAt: new Date() });
const finished = (messageId: string) => ({ kind: 'finished', messageId, agentId: randomUUID(), userId: randomUUID() });

describe('mailbox signals when the NOTIFY and this process\'s own news race', () => {
  it('when this process answers a message and its finished NOTIFY comes first, then the watch wakes only with the reply', async () => {
    const messageId = randomUUID();
    const watch = signals.watch(messageId);
    const release = signals.answering(messageId);
    await notify(finished(messageId));
    await heardAt(1, (s) => s.kind === 'finished' && s.messageId === messageId);
    expect(await Promise.race([watch.wait(5_000).then(() => 'woken'), new Promise((r) => setTimeout(() => r('waiting'), 50))])).toBe('waiting');

    const answer = reply(messageId);
    signals.answeredHere(messageId, answer);
    release();
    await watch.wait(5_000);
    expect(watch.reply()).toEqual(answer);
    watch.close();
  });

  it('when this process records a failure (no reply handed), then the held finished NOTIFY wakes the watch at the release', async () => {
    const messageId = randomUUID();
    const watch = signals.watch(messageId);
    const release = signals.answering(messageId);
    await notify(finished(messageId));
    await heardAt(1, (s) => s.kind === 'finished' && s.messageId === messageId);
    release();
    await watch.wait(5_000);
    expect(watch.reply()).toBeNull();
    watch.close();
  });

  it('when another process answers a message, then its finished NOTIFY wakes the watch as before', async () => {
    const messageId = randomUUID();
    const watch = signals.watch(messageId);
    const t0 = performance.now();
    await notify(finished(messageId));
    await watch.wait(5_000);
    expect(performance.now() - t0).toBeLessThan(4_000);
    expect(watch.reply()).toBeNull();
    watch.close();
  });

  it('when a queued NOTIFY comes back before its queuedHere, then the message is announced here once', async () => {
    const userId = randomUUID() as UserId;
    const agentId = randomUUID();
    const isMine = (s: MailboxSignal) => s.kind === 'queued' && s.agentId === agentId;
    await notify({ kind: 'queued', userId, agentId });
    await heardAt(1, isMine);
    signals.queuedHere(userId, agentId);
    expect(heard.filter(isMine)).toHaveLength(1);

    // the usual order: announced at once, its NOTIFY then taken as the echo
    signals.queuedHere(userId, agentId);
    expect(heard.filter(isMine)).toHaveLength(2);
    await notify({ kind: 'queued', userId, agentId });
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.filter(isMine)).toHaveLength(2);
  });

  it('when a queued NOTIFY of the agent was heard long before, then a queuedHere is announced at once', async () => {
    const userId = randomUUID() as UserId;
    const agentId = randomUUID();
    const isMine = (s: MailboxSignal) => s.kind === 'queued' && s.agentId === agentId;
    await notify({ kind: 'queued', userId, agentId });
    await heardAt(1, isMine);
    await new Promise((r) => setTimeout(r, 400));
    signals.queuedHere(userId, agentId);
    expect(heard.filter(isMine)).toHaveLength(2);
  });
});

describe('a watch\'s wait given a stop signal', () => {
  it('when the signal aborts, then the wait ends at once, and an aborted signal ends the next wait before it starts', async () => {
    const watch = signals.watch(randomUUID());
    const stop = new AbortController();
    const waiting = watch.wait(60_000, stop.signal);
    const t0 = performance.now();
    stop.abort();
    await waiting;
    expect(performance.now() - t0).toBeLessThan(1_000);
    await watch.wait(60_000, stop.signal);
    watch.close();
  });

  it('when hundreds of waits end by time-out or by their NOTIFY, then the signal keeps no listener of any (a process-long promise raced on each wait kept every one: decision 0474)', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 400; i++) {
      const messageId = randomUUID();
      const watch = signals.watch(messageId);
      const waiting = watch.wait(i % 2 ? 0 : 60_000, stop.signal);
      expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
      if (i % 2 === 0) await notify(finished(messageId));
      await waiting;
      watch.close();
      expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    }
  }, 120_000);
});
