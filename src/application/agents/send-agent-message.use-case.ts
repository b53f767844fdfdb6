import { setMaxListeners } from 'node:events';
import { inject, injectable } from 'tsyringe';
import { assertKeyMayUse } from '../auth/key-access.js';
import { AgentNotRunningError } from '../../domain/agents/agent.errors.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { MAILBOX_LANES, type MailboxLanes } from '../ports/mailbox-lanes.port.js';
import { MAILBOX_SIGNALS, type MailboxOutcome, type MailboxSignals, type MessageWatch } from '../ports/agent-mailbox.port.js';
import type { AgentMessage } from '../ports/agent-message-repository.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type HotWrite, type SystemStatements, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope, AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import type { UserId } from '../../domain/shared/ids.js';
import { AGENT_CHAT_SETTINGS, type AgentChatSettings } from '../ports/agent-chat-settings.port.js';

export type SendOutcome =
  /** The agent answered: both messages are stored. */
  | { kind: 'answered'; message: AgentMessage; reply: AgentMessage }
  /** No answer within the reply timeout: it still arrives in the history. */
  | { kind: 'pending'; message: AgentMessage }
  /** The answer failed (`code` from the runtime or the service); no reply was stored. */
  | { kind: 'failed'; message: AgentMessage; code: string; error: string };

/**
 * POST /api/chat (CONTRACT.md section 7 "talking to an agent"): stores the user's message and
 * queues it in the agent's mailbox in one statement (a hot write), then waits for the answer. The answer is
 * made by whichever worker runs the user's runtime, maybe in another process: this one waits
 * for the mailbox's NOTIFY and looks at the row every `pollMs` in case an announcement was lost;
 * when this process's own worker answered, the reply comes with the wake-up and is not read back.
 * An agent that is not running: AgentNotRunningError (409), nothing stored; another user's: 404.
 * Later messages wait their turn in the mailbox, never refused. With `sessionId` (one of the
 * agent's sessions, else 404) the message and its reply carry it.
 */
@injectable()
export class SendAgentMessage {
  constructor(
    @inject(UNIT_OF_WORK)
    private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentMessages' | 'agentMailbox' | 'agentSessions'> & HotWrite<'sendToRunningAgent' | 'sendAndClaim'> & SystemStatements<AgentsSystemScope, 'agentMailbox'>,
    @inject(MAILBOX_SIGNALS) private readonly signals: MailboxSignals,
    @inject(MAILBOX_LANES) private readonly lanes: MailboxLanes,
    @inject(AGENT_CHAT_SETTINGS) private readonly settings: AgentChatSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  /**
   * Set when the process stops: requests waiting for an answer answer `pending` at once instead of
   * holding the shutdown. Every waiting request listens to it (and stops listening when its wait
   * ends): as many listeners as requests waiting, so Node's warning at eleven is not a leak here.
   */
  private readonly stopping = unboundedAbortController();

  /** The process is stopping: every wait ends now with `pending` (the message stays queued and is answered later). */
  stopWaiting(): void {
    this.stopping.abort();
  }

  /**
   * `channel` names where the message came from (`web` for POST /api/chat, `websocket`); with
   * `wait: false` it answers `pending` at once (the websocket pushes the answer when it is stored).
   * `stored` is told the message as soon as it is stored and queued, before the wait (a caller
   * streaming the answer's pieces needs its id).
   */
  async execute(
    actor: Pick<Actor, 'userId'> & Partial<Pick<Actor, 'credential'>>,
    input: { agentId: string; content: string; sessionId?: string },
    opts: { channel?: string; wait?: boolean; stored?: (message: AgentMessage) => void } = {},
  ): Promise<SendOutcome> {
    // a key with a models list talks only to the agents it names, `agent/<id>` (decision 0425)
    if (actor.credential) assertKeyMayUse({ credential: actor.credential }, `agent/${input.agentId}`);
    await this.signals.start();
    // One round trip on the hot path: stored and queued only if the agent is the user's and running
    // (and the session the agent's); only when nothing was written is the agent read, to say why.
    // A caller that waits for the answer stores without waiting for the disk: what it answers next
    // follows a synchronous commit that flushes the message too (the reply's store, a failure's
    // record), or it makes the message durable itself before answering `pending`.
    const awaitDisk = opts.wait === false;
    const args = { agentId: input.agentId, content: input.content, channel: opts.channel ?? 'web', sessionId: input.sessionId ?? null };
    let message: AgentMessage;
    let watch: MessageWatch | null = null;
    // When this process answers the user's messages and has a lane free, the message is stored
    // already claimed with what the answer needs, and that lane answers it at once: no claim of
    // its own (decision 0368). Not for a caller that does not wait (it would make the message durable first).
    const lane = awaitDisk ? null : this.lanes.hold(actor.userId);
    if (lane) {
      let sent;
      try {
        sent = await this.uow.writeAsUser(actor.userId, 'sendAndClaim', { ...args, claimId: lane.claimId, workerId: lane.workerId, historyLimit: this.settings.historyMessages });
      } finally {
        if (!sent?.claimed) lane.release();
      }
      message = sent?.message ?? (await this.refusal(actor.userId, input));
      if (sent?.claimed) {
        // watched before the answer starts, so its outcome cannot pass unseen
        watch = this.signals.watch(message.id);
        lane.answer(sent.claimed);
      } else this.signals.queuedHere(actor.userId, message.agentId);
    } else {
      message = (await this.uow.writeAsUser(actor.userId, 'sendToRunningAgent', { ...args, awaitDisk })) ?? (await this.refusal(actor.userId, input));
      // this process's own worker (when it runs the user's runtime) starts on it now, not when the NOTIFY comes back
      this.signals.queuedHere(actor.userId, message.agentId);
    }
    opts.stored?.(message);
    if (opts.wait === false) return { kind: 'pending', message };

    const deadline = this.clock.now().getTime() + this.settings.replyTimeoutMs;
    watch ??= this.signals.watch(message.id);
    try {
      // The first pass only waits: nothing can have answered a message queued a moment ago, and the
      // answer comes with a wake-up. After each wait the row is read, in case a wake-up was lost.
      for (let waited = false; ; waited = true) {
        // answered by this process's worker: the reply came with the wake-up
        const handed = watch.reply();
        if (handed) return { kind: 'answered', message, reply: handed };
        if (waited) {
          const done = await this.outcomeOf(actor.userId, message);
          if (done) return done;
        }
        const left = deadline - this.clock.now().getTime();
        if (left <= 0 || this.stopping.signal.aborted) return await this.pending(message);
        await watch.wait(Math.min(left, this.settings.pollMs), this.stopping.signal);
      }
    } finally {
      watch.close();
    }
  }

  /**
   * `pending` says the message is stored and will be answered: it is made durable first (it was
   * stored without waiting for the disk). If even that fails (the database went away), `pending`
   * all the same: the message has most likely reached the disk long since (the WAL writer flushes
   * within a fraction of a second), and an error would make the client send it again.
   */
  private async pending(message: AgentMessage): Promise<SendOutcome> {
    try {
      await this.uow.statementsAsSystem((s) => s.agentMailbox.makeDurable(message.id));
    } catch (err) {
      this.log.warn({ err, messageId: message.id }, 'a stored message could not be flushed before answering pending');
    }
    return { kind: 'pending', message };
  }

  /**
   * The outcome and the reply it names, read in one transaction; null while there is none yet.
   * The message is stored by now, so a failed read (the database went away, a connection was
   * terminated) is never the request's error: the wait goes on, and at the deadline the answer is
   * `pending` (a client retrying an error would store the question twice).
   */
  private async outcomeOf(userId: UserId, message: AgentMessage): Promise<SendOutcome | null> {
    try {
      return await this.uow.asUser(userId, async (s) => {
        const outcome = await s.agentMailbox.outcome(message.id);
        return outcome && this.settled(s, message, outcome);
      });
    } catch (err) {
      this.log.warn({ err, messageId: message.id }, 'the outcome of a stored message could not be read; still waiting');
      return null;
    }
  }

  /** Why nothing was sent: 404 for an agent (or a session of it) that is not the user's, else 409 with its state. */
  private refusal(userId: UserId, input: { agentId: string; sessionId?: string }): Promise<never> {
    return this.uow.asUser(userId, async (s) => {
      // a session must be one of this agent's own (another user's or agent's reads as absent)
      const [agent, session] = await Promise.all([s.agents.get(input.agentId), input.sessionId === undefined ? null : s.agentSessions.get(input.sessionId)]);
      if (!agent) throw new NotFoundError('Agent');
      if (input.sessionId !== undefined && session?.agentId !== agent.id) throw new NotFoundError('Session');
      throw new AgentNotRunningError(agent.status);
    });
  }

  private async settled(s: Pick<AgentsUserScope, 'agentMessages'>, message: AgentMessage, outcome: MailboxOutcome): Promise<SendOutcome | null> {
    if (outcome.status === 'failed') return { kind: 'failed', message, code: outcome.errorCode ?? 'PROVIDER_ERROR', error: outcome.error ?? 'The agent could not answer' };
    if (outcome.status !== 'answered' || !outcome.replyMessageId) return null;
    const reply = await s.agentMessages.get(outcome.replyMessageId);
    return reply ? { kind: 'answered', message, reply } : null;
  }
}

/** An AbortController whose signal may have any number of listeners at once. */
function unboundedAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

