import { inject, injectable } from 'tsyringe';
import { DomainError } from '../../domain/shared/domain-error.js';
import type { UserId } from '../../domain/shared/ids.js';
import { MAILBOX_SIGNALS, type ClaimedMessage, type ClaimedWithContext, type MailboxSignals } from '../ports/agent-mailbox.port.js';
import { AGENT_RUNTIME, type AgentRuntime, type Delivery } from '../ports/agent-runtime.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { UNIT_OF_WORK, type SystemStatements, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';
import { WORKER_IDENTITY, type WorkerIdentity } from '../ports/worker-identity.port.js';
import { AGENT_TOOL_SOURCE, type AgentToolSource } from '../ports/agent-tool-source.port.js';
import { AGENT_CHAT_SETTINGS, type AgentChatSettings } from '../ports/agent-chat-settings.port.js';
import { MAILBOX_FAILURE } from './mailbox-failure.js';
import { RuntimeReplyError, RuntimeUnavailableError } from './runtime.errors.js';

export type AnswerResult =
  /** Nothing claimable for the user now. */
  | { kind: 'idle' }
  /** `othersQueued`: another message of the user was queued when this one was claimed. */
  | { kind: 'answered' | 'failed'; agentId: string; messageId: string; othersQueued: boolean }
  /** The work was left `working` (this process is stopping): it is recovered later. */
  | { kind: 'abandoned'; agentId: string; messageId: string }
  /** The answer came after the message had been queued again for another claim (this worker lost the instance): nothing was stored. */
  | { kind: 'superseded'; agentId: string; messageId: string }
  /** The runtime went away under the answer: the message is queued again, answered once the runtime runs (after a repair). */
  | { kind: 'requeued'; agentId: string; messageId: string };

/**
 * The mailbox worker's one step for one user whose runtime this process runs: claims the next
 * message of one of the user's agents (one at a time per agent, in order: SystemMailbox.claimNext),
 * builds the Delivery (the agent's config, its memory, the recent history, its model), hands it to
 * the runtime (streamed: each piece is announced as a `delta` for the agent's websockets), and stores the outcome: the reply (role assistant) and a `message_answered` event
 * with the duration, or a `message_failed` event with the code. No reply is ever invented. The
 * runtime call runs outside any transaction.
 */
@injectable()
export class AnswerNextAgentMessage {
  constructor(
    @inject(UNIT_OF_WORK)
    private readonly uow: SystemWork<AgentsSystemScope, 'agentMailbox' | 'agentEvents'> &
      SystemStatements<AgentsSystemScope, 'agentMailbox'>,
    @inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @inject(MAILBOX_SIGNALS) private readonly signals: MailboxSignals,
    @inject(AGENT_CHAT_SETTINGS) private readonly settings: AgentChatSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
    @inject(AGENT_TOOL_SOURCE) private readonly tools: AgentToolSource,
    @inject(WORKER_IDENTITY) private readonly worker: WorkerIdentity,
  ) {}

  /**
   * `claimId` names this claim, made by the caller before the call: when the call throws (the
   * database failed), whatever it claimed is handed back by that name (releaseClaim), even a claim
   * whose result never arrived. `signal` aborts when the process is stopping: the runtime drops the
   * work and the message stays `working`, to be handed back. `onClaimed` learns the agent being answered.
   */
  async execute(
    userId: UserId,
    opts: {
      claimId: string;
      signal?: AbortSignal;
      onClaimed?: (agentId: string, messageId: string) => void;
      onDelta?: (agentId: string, text: string) => void;
      /** The message was stored already claimed under `claimId`, with this context (HotWrites.sendAndClaim): no claim is made. */
      claimed?: ClaimedWithContext;
    },
  ): Promise<AnswerResult> {
    // On the path of every answer, so as few round trips as can be: the claim and what the runtime
    // needs (the agent, its history, skills, memory and MCP servers) are one statement, atomic alone.
    const work =
      opts.claimed ??
      (await this.uow.statementsAsSystem((s) =>
        s.agentMailbox.claimNextWithContext(userId, { claimId: opts.claimId, workerId: this.worker.workerId }, this.settings.historyMessages),
      ));
    if (!work) return { kind: 'idle' };
    const { claimed } = work;
    const delivery = this.delivery(work);

    opts.onClaimed?.(claimed.agentId, claimed.messageId);
    // the waiting request learns the outcome from this process (with the reply), not from the NOTIFY
    const release = this.signals.answering(claimed.messageId);
    try {
      return await this.answerClaimed(userId, claimed, delivery, opts);
    } finally {
      release();
    }
  }

  private async answerClaimed(
    userId: UserId,
    claimed: ClaimedMessage,
    delivery: Delivery | null,
    opts: { signal?: AbortSignal; onDelta?: (agentId: string, text: string) => void },
  ): Promise<AnswerResult> {
    const ids = { agentId: claimed.agentId, messageId: claimed.messageId };
    const done = { ...ids, othersQueued: claimed.othersQueued };
    if (!delivery) {
      await this.fail(claimed, MAILBOX_FAILURE.notRunning, 'The agent is no longer running', 0);
      return { kind: 'failed', ...done };
    }

    const started = this.clock.now().getTime();
    // the answer streams: its pieces are announced (for the agent's websockets) in order; pieces
    // arriving while an announcement is on its way go together in the next one, so a fast answer
    // costs a round trip or two, not one per piece
    let unsent = '';
    let publishing: Promise<void> | null = null;
    const publish = async () => {
      while (unsent !== '') {
        const content = unsent;
        unsent = '';
        await this.signals
          .publishDelta({ agentId: claimed.agentId, userId, messageId: claimed.messageId, content })
          .catch((err) => this.log.warn({ err, agentId: claimed.agentId }, 'an answer delta could not be announced'));
      }
      publishing = null;
    };
    const onDelta = (content: string) => {
      opts.onDelta?.(claimed.agentId, content);
      if (content === '') return; // publish() must find something to send, or `publishing` would stay set
      unsent += content;
      publishing ??= publish();
    };
    try {
      // streamed piece by piece only while a live view of the agent is open somewhere (a websocket):
      // otherwise the whole reply in one piece, without the stream's cost on every hop
      const streamed = opts.onDelta !== undefined || this.signals.isWatched(claimed.agentId);
      const reply = await this.runtime.deliver(userId, delivery, { signal: opts.signal, ...(streamed ? { onDelta } : {}) });
      // Not awaited: the last pieces may be announced after the reply is stored. A websocket drops a
      // piece of an answer already finished (agent-sockets.ts); the stored reply is whole anyway.
      const durationMs = Math.max(0, this.clock.now().getTime() - started);
      // the reply, the mailbox row and the event in one statement: one round trip on every answer
      const stored = await this.uow.statementsAsSystem((s) => s.agentMailbox.answer(claimed, { content: reply.content, channel: 'web', model: reply.model }, { durationMs, at: this.clock.now() }));
      // superseded: the message was queued again meanwhile (this worker lost the instance) and is another claim's now
      if (!stored) return { kind: 'superseded', ...ids };
      this.signals.answeredHere(claimed.messageId, stored);
      return { kind: 'answered', ...done };
    } catch (err) {
      if (opts.signal?.aborted) return { kind: 'abandoned', ...ids };
      if (!(err instanceof DomainError)) throw err;
      // The database went away under the answer (here, or under the runtime's call to the service):
      // not the agent's failure, and nothing can be recorded now. The claim is handed back once the
      // database returns (releaseClaim), so the message is answered after the outage.
      if (isDatabaseOutage(err)) throw err;
      if (err instanceof RuntimeUnavailableError) {
        // the runtime died under this message (a crash or a kill): it waits for the runtime to run again
        const outcome = await this.uow.asSystem((s) => s.agentMailbox.retryLater(claimed.claimId, this.settings.maxAttempts, MAILBOX_FAILURE.runtimeUnavailable, err.message));
        if (outcome === 'queued') return { kind: 'requeued', ...ids };
        if (outcome === 'failed') await this.recordFailure(claimed, MAILBOX_FAILURE.runtimeUnavailable, err.message, Math.max(0, this.clock.now().getTime() - started));
        return { kind: 'failed', ...done };
      }
      const code = err instanceof RuntimeReplyError ? err.failure : err.code === 'UPSTREAM_UNAVAILABLE' ? MAILBOX_FAILURE.runtimeUnavailable : err.code;
      this.log.warn({ agentId: claimed.agentId, userId, code }, 'an agent could not answer a message');
      await this.fail(claimed, code, err.message, Math.max(0, this.clock.now().getTime() - started));
      return { kind: 'failed', ...done };
    }
  }

  /**
   * Queues again the message claimed under `claimId` that this process could not conclude (the
   * claim's result, the reads after it or the outcome's store failed, e.g. the database was down):
   * without this it would wait for AGENT_MAILBOX_STALE_MS. A no-op when nothing is `working` under it.
   */
  async releaseClaim(claimId: string): Promise<void> {
    await this.uow.asSystem((s) => s.agentMailbox.retryLater(claimId, this.settings.maxAttempts, MAILBOX_FAILURE.interrupted, 'The answer was interrupted too many times'));
  }

  /**
   * What the runtime needs; null when the agent is gone or no longer running. Everything comes with
   * the claim, the agent's MCP servers' tools included (decision 0479).
   */
  private delivery({ claimed, agent, history, installs, memory, mcpServers }: ClaimedWithContext): Delivery | null {
    if (!agent || agent.status !== 'running') return null;
    const tools = [...this.tools.toolsFor(installs), ...this.tools.mcpToolsFor(mcpServers)];
    return {
      agentId: agent.id,
      model: agent.model,
      content: claimed.content,
      config: agent.config,
      memory,
      history: history.map((m) => ({ role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const), content: m.content })),
      ...(tools.length > 0 ? { tools, maxToolSteps: this.settings.maxToolSteps } : {}),
    };
  }

  private fail(claimed: ClaimedMessage, code: string, error: string, durationMs: number): Promise<void> {
    return this.uow.asSystem(async (s) => {
      if (await s.agentMailbox.fail(claimed, { errorCode: code, error })) {
        await s.agentEvents.append(this.failedEvent(claimed, code, error, durationMs));
      }
    });
  }

  private recordFailure(claimed: ClaimedMessage, code: string, error: string, durationMs: number): Promise<void> {
    return this.uow.asSystem((s) => s.agentEvents.append(this.failedEvent(claimed, code, error, durationMs)));
  }

  private failedEvent(claimed: ClaimedMessage, code: string, error: string, durationMs: number) {
    return { agentId: claimed.agentId, userId: claimed.userId, kind: 'message_failed' as const, durationMs, reason: `${code}: ${error}`.slice(0, 500), at: this.clock.now() };
  }
}

const DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE';

/** The service's database failed: directly, or as the runtime's call to the service reports it. */
const isDatabaseOutage = (err: DomainError): boolean =>
  err.code === DATABASE_UNAVAILABLE || (err instanceof RuntimeReplyError && err.failure === DATABASE_UNAVAILABLE);
