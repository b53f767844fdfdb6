import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { MAILBOX_SIGNALS, type MailboxSignals } from '../ports/agent-mailbox.port.js';
import { SendAgentMessage, type SendOutcome } from './send-agent-message.use-case.js';

/** What a streamed question yields: the answer's pieces as the worker makes them, then its outcome. */
export type AgentAnswerEvent = { readonly type: 'delta'; readonly text: string } | { readonly type: 'outcome'; readonly outcome: SendOutcome };

/** Where the OpenAI-compatible API's messages say they came from (a message's `channel`). */
export const API_CHANNEL = 'v1';

/** Pieces announced before this request learnt its message's id are kept up to this many. */
const EARLY_PIECES = 256;

/**
 * A question to one of the caller's agents through its mailbox, exactly as POST /api/chat sends it
 * (SendAgentMessage: stored, queued in order, answered by the agent's worker, seen on its
 * websocket), its answer streamed, for the OpenAI-compatible API's `agent/<id>` models (decision
 * 0421; unstreamed, that API calls SendAgentMessage itself with API_CHANNEL). Refusals are
 * SendAgentMessage's: 404 for an agent that is not the caller's, 409 AGENT_NOT_RUNNING for one that is stopped.
 */
@injectable()
export class StreamAgentReply {
  constructor(
    @inject(SendAgentMessage) private readonly send: SendAgentMessage,
    @inject(MAILBOX_SIGNALS) private readonly signals: MailboxSignals,
  ) {}

  /**
   * Resolves once the message is stored (a refusal rejects
   * first, so the caller can still answer with a status), then yields the pieces the worker
   * announces for it (MailboxSignals deltas, as the agent's websocket shows them: best effort) and
   * last the outcome, whose stored reply is whole. The agent is announced as watched, so its worker
   * streams the answer piece by piece. Leaving the iteration early stops listening; the agent still
   * answers, and its reply is stored.
   */
  async execute(actor: Pick<Actor, 'userId'> & Partial<Pick<Actor, 'credential'>>, input: { agentId: string; content: string }): Promise<AsyncGenerator<AgentAnswerEvent>> {
    await this.signals.start();
    const events = new EventQueue<AgentAnswerEvent>();
    let messageId: string | null = null;
    const early: { messageId: string; content: string }[] = [];
    const unsubscribe = this.signals.subscribe((s) => {
      if (s.kind !== 'delta' || s.agentId !== input.agentId || s.userId !== actor.userId) return;
      if (messageId === null) {
        if (early.length < EARLY_PIECES) early.push(s);
      } else if (s.messageId === messageId) events.push({ type: 'delta', text: s.content });
    });
    let stored!: () => void;
    const isStored = new Promise<void>((resolve) => (stored = resolve));
    try {
      await this.signals.watching(actor.userId, input.agentId);
      const outcome = this.send.execute(actor, input, {
        channel: API_CHANNEL,
        stored: (message) => {
          messageId = message.id;
          for (const piece of early) if (piece.messageId === message.id) events.push({ type: 'delta', text: piece.content });
          early.length = 0;
          stored();
        },
      });
      outcome.then((o) => events.end({ type: 'outcome', outcome: o }), (err: unknown) => events.fail(err));
      await Promise.race([isStored, outcome]);
    } catch (err) {
      unsubscribe();
      throw err;
    }
    return events.drain(unsubscribe);
  }
}

/** Events pushed by one side and read in order by the other, ending with one last event or a failure. */
class EventQueue<T> {
  private readonly items: T[] = [];
  private done = false;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  push(item: T): void {
    if (this.done) return;
    this.items.push(item);
    this.notify();
  }

  end(last: T): void {
    this.push(last);
    this.done = true;
  }

  fail(error: unknown): void {
    if (this.done) return;
    this.failure = { error };
    this.done = true;
    this.notify();
  }

  async *drain(onStop: () => void): AsyncGenerator<T> {
    try {
      for (;;) {
        while (this.items.length > 0) yield this.items.shift()!;
        if (this.failure) throw this.failure.error;
        if (this.done) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      onStop();
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
