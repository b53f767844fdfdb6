import pg from 'pg';
import { WATCH_TTL_MS, type MailboxSignal, type MailboxSignals, type MessageWatch } from '../../../application/ports/agent-mailbox.port.js';
import type { AgentMessage } from '../../../application/ports/agent-message-repository.port.js';
import { isUuid, type UserId } from '../../../domain/shared/ids.js';

/** The channel the `agent_mailbox` triggers notify on (migration 2026_11_24_0010). */
const CHANNEL = 'agent_mailbox';
/**
 * How long a NOTIFY may take to come back and still count as the echo of a queuedHere; one lost
 * meanwhile (the listener reconnecting) costs another process's announcement at most this long
 * (the dispatcher's sweep still finds that message).
 */
const ECHO_WINDOW_MS = 5_000;
/**
 * How long a `queued` NOTIFY heard first may still be the echo of a queuedHere whose store's result
 * is on its way: a few round trips. Taken for one when it was another process's message to the same
 * agent, that message is still announced (its lane runs already) and this one's own NOTIFY follows.
 */
const EARLY_WINDOW_MS = 250;
/** Characters of a delta per notification (at most 4 bytes each in UTF-8, well under the 8000-byte payload limit with JSON escapes). */
const DELTA_CHARS = 1_000;

function parse(payload: string | undefined): MailboxSignal | null {
  try {
    const s = JSON.parse(payload ?? '') as Record<string, unknown>;
    if (typeof s.userId !== 'string' || !isUuid(s.userId) || typeof s.agentId !== 'string') return null;
    if (s.kind === 'queued') return { kind: 'queued', userId: s.userId as UserId, agentId: s.agentId };
    if (s.kind === 'delta' && typeof s.messageId === 'string' && typeof s.content === 'string') {
      return { kind: 'delta', agentId: s.agentId, userId: s.userId as UserId, messageId: s.messageId, content: s.content };
    }
    if (s.kind === 'watching') return { kind: 'watching', agentId: s.agentId, userId: s.userId as UserId };
    if (s.kind === 'status' && typeof s.status === 'string') return { kind: 'status', agentId: s.agentId, userId: s.userId as UserId, status: s.status };
    if ((s.kind === 'finished' || s.kind === 'stored') && typeof s.messageId === 'string') {
      return { kind: s.kind, messageId: s.messageId, agentId: s.agentId, userId: s.userId as UserId };
    }
  } catch {
    // ignored below
  }
  return null;
}

/**
 * Mailbox announcements over PostgreSQL LISTEN/NOTIFY (the triggers send them at commit). One
 * listening connection per process, opened on first use, reconnecting after a failure; watches of
 * single messages are kept in memory and woken by the `finished` announcements.
 */
export class PgMailboxSignals implements MailboxSignals {
  private listener: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(s: MailboxSignal) => void>();
  private readonly watches = new Map<string, Set<(reply?: AgentMessage) => void>>();
  /** When a live view of each agent was last announced (by any process). */
  private readonly watchedAt = new Map<string, number>();
  /** Messages this process's worker is answering (MailboxSignals.answering): whether a `finished` was held back, and whether answeredHere came. */
  private readonly answeringHere = new Map<string, { finished: boolean; answered: boolean }>();
  /** When this process last announced `queued` itself, per agent: the NOTIFYs still to come back for it. */
  private readonly queuedLocally = new Map<string, number[]>();
  /** `queued` NOTIFYs announced as heard (not echoes) in the last EARLY_WINDOW_MS, oldest first: a queuedHere after its own NOTIFY takes one. */
  private readonly heardQueued: { agentId: string; at: number }[] = [];

  constructor(
    /** Where deltas are published from (any pool allowed to NOTIFY). */
    private readonly pool: pg.Pool,
    private readonly connectionConfig: pg.ClientConfig,
    private readonly log: { warn(obj: object, msg?: string): void },
  ) {}

  start(): Promise<void> {
    this.stopped = false;
    this.starting ??= this.connect();
    return this.starting;
  }

  subscribe(listener: (signal: MailboxSignal) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async publishDelta(d: { agentId: string; userId: UserId; messageId: string; content: string }): Promise<void> {
    // NOTIFY payloads stay under 8000 bytes: a long piece goes in several
    for (let i = 0; i < d.content.length; i += DELTA_CHARS) {
      const payload = JSON.stringify({ kind: 'delta', agentId: d.agentId, userId: d.userId, messageId: d.messageId, content: d.content.slice(i, i + DELTA_CHARS) });
      await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    }
  }

  watch(messageId: string): MessageWatch {
    let finished = false;
    let handed: AgentMessage | null = null;
    let wake: (() => void) | null = null;
    const onFinish = (reply?: AgentMessage) => {
      finished = true;
      handed ??= reply ?? null;
      wake?.();
    };
    let set = this.watches.get(messageId);
    if (!set) this.watches.set(messageId, (set = new Set()));
    set.add(onFinish);
    const close = () => {
      set.delete(onFinish);
      if (set.size === 0 && this.watches.get(messageId) === set) this.watches.delete(messageId);
    };
    return {
      wait: (ms, signal) =>
        finished || signal?.aborted
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              const timer = setTimeout(done, Math.max(0, ms));
              signal?.addEventListener('abort', done, { once: true });
              function done() {
                clearTimeout(timer);
                signal?.removeEventListener('abort', done);
                wake = null;
                resolve();
              }
              wake = done;
            }),
      reply: () => handed,
      close,
    };
  }

  answeredHere(messageId: string, reply: AgentMessage): void {
    const held = this.answeringHere.get(messageId);
    if (held) held.answered = true;
    for (const wake of this.watches.get(messageId) ?? []) wake(reply);
  }

  answering(messageId: string): () => void {
    const entry = { finished: false, answered: false };
    this.answeringHere.set(messageId, entry);
    return () => {
      if (this.answeringHere.get(messageId) === entry) this.answeringHere.delete(messageId);
      // a `finished` came for an outcome this process stored without handing a reply (a failure)
      if (entry.finished && !entry.answered) for (const wake of this.watches.get(messageId) ?? []) wake();
    };
  }

  queuedHere(userId: UserId, agentId: string): void {
    const now = Date.now();
    // Its NOTIFY may have come back first (it travels on the listening connection, the store's
    // result on another): that one was announced already, as this would be. Announcing twice
    // started a second lane, and a claim that finds nothing, for a third of the messages.
    if (this.takeEarly(agentId, now)) return;
    const pending = (this.queuedLocally.get(agentId) ?? []).filter((at) => now - at < ECHO_WINDOW_MS);
    pending.push(now);
    this.queuedLocally.set(agentId, pending);
    this.dispatch({ kind: 'queued', userId, agentId });
  }

  async watching(userId: UserId, agentId: string): Promise<void> {
    this.watchedAt.set(agentId, Date.now());
    await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ kind: 'watching', agentId, userId })]);
  }

  isWatched(agentId: string): boolean {
    const at = this.watchedAt.get(agentId);
    if (at === undefined) return false;
    if (Date.now() - at < WATCH_TTL_MS) return true;
    this.watchedAt.delete(agentId);
    return false;
  }

  /** Takes a `queued` NOTIFY of the agent heard within EARLY_WINDOW_MS, if any: the echo of a queuedHere that came before it. */
  private takeEarly(agentId: string, now: number): boolean {
    this.forgetHeard(now);
    const i = this.heardQueued.findIndex((h) => h.agentId === agentId);
    if (i < 0) return false;
    this.heardQueued.splice(i, 1);
    return true;
  }

  /** Drops the heard NOTIFYs older than EARLY_WINDOW_MS (the list is in arrival order). */
  private forgetHeard(now: number): void {
    let stale = 0;
    while (stale < this.heardQueued.length && now - this.heardQueued[stale]!.at >= EARLY_WINDOW_MS) stale++;
    if (stale > 0) this.heardQueued.splice(0, stale);
  }

  /** True when a `queued` NOTIFY is the echo of a queuedHere already announced (one echo per call). */
  private isEcho(agentId: string): boolean {
    const now = Date.now();
    const pending = (this.queuedLocally.get(agentId) ?? []).filter((at) => now - at < ECHO_WINDOW_MS);
    const echo = pending.length > 0;
    if (echo) pending.shift();
    if (pending.length > 0) this.queuedLocally.set(agentId, pending);
    else this.queuedLocally.delete(agentId);
    return echo;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    await this.starting?.catch(() => {});
    this.starting = null;
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }

  private dispatch(signal: MailboxSignal): void {
    if (signal.kind === 'watching') this.watchedAt.set(signal.agentId, Date.now());
    if (signal.kind === 'finished') {
      // answered by this process: its watches wake from answeredHere (with the reply) or the release
      const held = this.answeringHere.get(signal.messageId);
      if (held) held.finished = true;
      else for (const wake of this.watches.get(signal.messageId) ?? []) wake();
    }
    for (const l of this.listeners) {
      try {
        l(signal);
      } catch (err) {
        this.log.warn({ err }, 'a mailbox listener failed');
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.connectionConfig);
    client.on('notification', (m) => {
      const signal = parse(m.payload);
      if (signal?.kind === 'queued') {
        if (this.isEcho(signal.agentId)) return;
        // maybe the echo of a queuedHere still on its way (see there): remembered for a moment
        const now = Date.now();
        this.forgetHeard(now);
        this.heardQueued.push({ agentId: signal.agentId, at: now });
      }
      if (signal) this.dispatch(signal);
      else this.log.warn({ channel: CHANNEL }, 'ignored a malformed mailbox notification');
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'mailbox listener lost its connection; reconnecting');
      this.reconnect();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.stopped) await client.end();
      else this.listener = client;
    } catch (err) {
      await client.end().catch(() => {});
      this.log.warn({ err }, 'mailbox listener could not connect; retrying');
      this.reconnect();
    }
  }

  private reconnect(): void {
    const old = this.listener;
    this.listener = null;
    void old?.end().catch(() => {});
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) this.starting = this.connect();
    }, 1_000);
    this.retry.unref();
  }
}
