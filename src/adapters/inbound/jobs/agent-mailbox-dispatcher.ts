import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { AnswerNextAgentMessage } from '../../../application/agents/answer-next-agent-message.use-case.js';
import type { FindAgentMailboxWork } from '../../../application/agents/find-agent-mailbox-work.use-case.js';
import type { ClaimedWithContext, MailboxSignals } from '../../../application/ports/agent-mailbox.port.js';
import type { HeldLane, MailboxLanes } from '../../../application/ports/mailbox-lanes.port.js';
import type { AgentRuntime } from '../../../application/ports/agent-runtime.port.js';
import type { Logger } from '../../../application/ports/logger.port.js';
import type { UserId } from '../../../domain/shared/ids.js';

/** A message stored already claimed for a held lane: answered first, without a claim. */
type FirstWork = { claimId: string; work: ClaimedWithContext; heardBefore: number };

export interface DispatcherOptions {
  /** The slow sweep's period (behind NOTIFY). */
  pollMs: number;
  /** How many of one user's agents may be answered at once in this process. */
  lanesPerUser: number;
  /** This worker's identity, which its claims carry. */
  workerId: string;
}

/**
 * Drives the mailbox in a worker process: wakes on the mailbox's NOTIFY (`queued`) and on a slow
 * sweep, and for each user whose runtime this process runs (AgentRuntime.isRunning: the ownership
 * rule) runs "lanes" that answer that user's messages one after another until nothing is
 * claimable. Several lanes answer different agents at once; the database's claim keeps one
 * answer at a time per agent whatever the lanes do. Stopping aborts the answers in progress:
 * they stay `working` and a later sweep (here or in the next owner) queues them again.
 */
export class AgentMailboxDispatcher implements MailboxLanes {
  private readonly lanes = new Map<UserId, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  /** Stops every answer in progress: one listener per delivery in flight, so no listener limit applies. */
  private readonly abort = (() => {
    const c = new AbortController();
    setMaxListeners(0, c.signal);
    return c;
  })();
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | null = null;
  /** Claims made here whose answer could not be concluded (the database failed, or this process is stopping): handed back by the next sweep, by name. */
  private readonly unreleased = new Set<string>();
  /** Numbers the `queued` announcements heard here, in order; per user, the last one's (kept while the user has lanes). */
  private announcements = 0;
  private readonly lastQueued = new Map<UserId, number>();

  constructor(
    private readonly answer: AnswerNextAgentMessage,
    private readonly findWork: FindAgentMailboxWork,
    private readonly signals: MailboxSignals,
    private readonly runtime: AgentRuntime,
    private readonly log: Logger,
    private readonly opts: DispatcherOptions,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = this.signals.subscribe((s) => {
      if (s.kind !== 'queued' || !this.runtime.isRunning(s.userId)) return;
      this.lastQueued.set(s.userId, ++this.announcements);
      this.kick(s.userId);
    });
    await this.signals.start();
    this.timer = setInterval(() => void this.sweep(), this.opts.pollMs);
    this.timer.unref();
    void this.sweep();
  }

  /** Looks for work now (also what the sweep does); resolves when the sweep has started the lanes. */
  sweep(): Promise<void> {
    this.sweeping ??= this.releaseClaims()
      .then(() => this.findWork.execute((u) => this.runtime.isRunning(u), [...this.inFlight.keys()]))
      .then((users) => users.forEach((u) => this.kick(u)))
      .catch((err) => this.log.warn({ err }, 'agent mailbox sweep failed'))
      .finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async releaseClaims(): Promise<void> {
    for (const claimId of [...this.unreleased]) {
      await this.answer.releaseClaim(claimId);
      this.unreleased.delete(claimId);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe?.();
    this.abort.abort();
    await Promise.allSettled([...this.running]);
    await this.sweeping;
    await this.releaseClaims().catch((err) => this.log.warn({ err }, 'agent mailbox claims could not be handed back; they are recovered when stale'));
  }

  private kick(userId: UserId): void {
    if (!this.take(userId)) return;
    this.run(userId, null);
  }

  /**
   * A lane held for a message POST /api/chat is about to store (decision 0368): taken as a kick
   * takes one, so the lanes per user stay bounded, and handed back unused when the message was not
   * stored claimed. An announcement heard while it was held may have found no lane free: the
   * release then starts the lane, as that kick would have.
   */
  hold(userId: UserId): HeldLane | null {
    if (!this.runtime.isRunning(userId) || !this.take(userId)) return null;
    const heardBefore = this.announcements;
    let used = false;
    return {
      claimId: randomUUID(),
      workerId: this.opts.workerId,
      answer: (work) => {
        if (used) return;
        used = true;
        if (this.abort.signal.aborted) {
          // stored claimed while this process was stopping (stop() does not wait for a held lane):
          // handed back at once, for the next owner to answer, instead of left working until stale
          this.giveBack(userId);
          const release = this.answer
            .releaseClaim(work.claimed.claimId)
            .catch((err) => this.log.warn({ err }, 'a message stored claimed during the stop could not be handed back; it is recovered when stale'))
            .finally(() => this.running.delete(release));
          this.running.add(release);
          return;
        }
        this.run(userId, { claimId: work.claimed.claimId, work, heardBefore });
      },
      release: () => {
        if (used) return;
        used = true;
        if ((this.lastQueued.get(userId) ?? 0) > heardBefore) this.run(userId, null);
        else this.giveBack(userId);
      },
    };
  }

  private take(userId: UserId): boolean {
    if (this.abort.signal.aborted) return false;
    const n = this.lanes.get(userId) ?? 0;
    if (n >= this.opts.lanesPerUser) return false;
    this.lanes.set(userId, n + 1);
    return true;
  }

  private giveBack(userId: UserId): void {
    const left = (this.lanes.get(userId) ?? 1) - 1;
    if (left > 0) this.lanes.set(userId, left);
    else {
      this.lanes.delete(userId);
      this.lastQueued.delete(userId); // a later announcement starts a lane of its own
    }
  }

  private run(userId: UserId, first: FirstWork | null): void {
    const lane = this.lane(userId, first).finally(() => {
      this.running.delete(lane);
      this.giveBack(userId);
    });
    this.running.add(lane);
  }

  /**
   * Answers the user's messages one after another. After an answer (or a failure) it claims again
   * only when something may be waiting: another message was queued as the claim saw it, or a
   * `queued` announcement came since the claim began (one queued after the claim's snapshot is
   * announced after it). Otherwise the claim that would find nothing is not made: one statement
   * less per message. Anything missed still has its announcement's kick, or the sweep.
   */
  private async lane(userId: UserId, first: FirstWork | null): Promise<void> {
    // a message stored claimed (hold) is answered even if the runtime stopped meanwhile: the answer records why it failed
    for (let claimedFirst = first; claimedFirst !== null || (!this.abort.signal.aborted && this.runtime.isRunning(userId)); claimedFirst = null) {
      // for a message stored claimed, what was heard since its lane was held (a kick then may have found no lane free)
      const heardBefore = claimedFirst?.heardBefore ?? this.announcements;
      let agentId: string | null = null;
      // named before the claim, so a claim is handed back even when its result was lost in an outage
      const claimId = claimedFirst?.claimId ?? randomUUID();
      try {
        const r = await this.answer.execute(userId, {
          claimId,
          ...(claimedFirst ? { claimed: claimedFirst.work } : {}),
          signal: this.abort.signal,
          onClaimed: (id) => {
            agentId = id;
            this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
          },
        });
        // abandoned (this process is stopping): handed back by stop(), for the next owner to answer at once
        if (r.kind === 'abandoned') this.unreleased.add(claimId);
        // requeued: the runtime went away; the next sweep or kick tries once it runs again.
        // superseded: another worker holds the instance now; this one stops answering for it
        if (r.kind === 'idle' || r.kind === 'abandoned' || r.kind === 'requeued' || r.kind === 'superseded') return;
        if (!r.othersQueued && (this.lastQueued.get(userId) ?? 0) <= heardBefore) return;
      } catch (err) {
        // the database failed (before, during or after the claim: it may have claimed without
        // hearing so): leave it to the next sweep rather than spin; a claim left `working` here
        // would otherwise hold the agent's queue until AGENT_MAILBOX_STALE_MS
        this.unreleased.add(claimId);
        this.log.warn({ err, userId }, 'agent mailbox step failed');
        return;
      } finally {
        if (agentId !== null) {
          const left = (this.inFlight.get(agentId) ?? 1) - 1;
          if (left > 0) this.inFlight.set(agentId, left);
          else this.inFlight.delete(agentId);
        }
      }
    }
  }
}
