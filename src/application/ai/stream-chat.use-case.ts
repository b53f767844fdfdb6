import { inject, injectable } from 'tsyringe';
import type { AiModel } from '../../domain/ai/ai-model.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { ChatCancelledError, providerRequest, type ChatAnswer, type ChatInput } from './chat-call.js';
import { abortable } from './abortable.js';
import { ChatMetering, type ChatPayment, type MeteredCall, type OpeningAhead } from './chat-metering.js';
import { ChatRouter, type RoutedStreamEvent } from './chat-router.js';
import { ProviderReach } from './provider-reach.js';

/** What a committed chat stream yields: deltas, then exactly one `done` or one `error`. */
export type ChatStreamOutput =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'done'; readonly answer: ChatAnswer }
  /** The provider failed after the first delta: the stream ends here and nothing is charged. */
  | { readonly type: 'error'; readonly code: string; readonly message: string };

export interface ChatStream {
  /** The model and provider answering (after any fallback). */
  readonly model: AiModel;
  readonly events: AsyncGenerator<ChatStreamOutput>;
}

/**
 * A streamed chat call. `execute` resolves once a provider has produced its first event, so
 * everything that can fail before that (plan, model, units, every candidate failing) rejects
 * with the same errors as CompleteChat and the route can still answer with a status. After that
 * the stream is committed: a provider failure ends it with an `error` event and releases the
 * reservation; the caller leaving (`signal`, or ending the iteration early), before or after the
 * first event, cancels the provider's request and settles to the prompt plus the streamed text
 * once the request had gone out, or releases when it had not (decision 0419); a normal end
 * settles to the provider's counts.
 *
 * The caller leaving is acted on when the signal aborts, not only when `events` is next read or
 * closed: a client that disconnects before the route starts reading never runs the generator at
 * all, and its reservation would stay held.
 */
@injectable()
export class StreamChat {
  constructor(
    @inject(ChatRouter) private readonly router: ChatRouter,
    @inject(ChatMetering) private readonly metering: ChatMetering,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(grant: ChatPayment, input: ChatInput, signal?: AbortSignal): Promise<ChatStream> {
    const ahead = this.metering.openAhead(grant, input);
    if (ahead) return this.executeAhead(ahead, input, signal);
    const call = await this.metering.open(grant, input);
    const reach = new ProviderReach();
    const routed = this.route(call, input, signal, reach);
    return this.commit(call, routed, routed.next(), signal, reach);
  }

  /** The provider's stream started beside the reservation (decision 0374): read from only once the reservation is taken. */
  private async executeAhead(ahead: OpeningAhead, input: ChatInput, signal: AbortSignal | undefined): Promise<ChatStream> {
    const provider = abortable(signal);
    const reach = new ProviderReach();
    const early = this.router.stream(ahead.candidates, textRequest(input), { signal: provider.signal, progress: reach });
    const first = early.next();
    first.catch(() => undefined); // awaited only once the reservation is taken
    const cancel = () => {
      provider.abort();
      early.return(undefined).catch(() => undefined);
    };
    let call: MeteredCall;
    try {
      call = await ahead.opening;
    } catch (refusal) {
      cancel(); // no reservation: nothing of the provider's stream is delivered, nothing charged
      throw refusal;
    }
    if (call.candidates !== ahead.candidates || call.byokKeys) {
      // opened otherwise than guessed (BYOK, another level): as if the early stream had never been started
      cancel();
      const rerouted = new ProviderReach();
      const routed = this.route(call, input, signal, rerouted);
      return this.commit(call, routed, routed.next(), signal, rerouted);
    }
    return this.commit(call, early, first, signal, reach);
  }

  private route(call: MeteredCall, input: ChatInput, signal: AbortSignal | undefined, reach: ProviderReach): AsyncGenerator<RoutedStreamEvent> {
    return this.router.stream(call.candidates, textRequest(input), { signal, byokKeys: call.byokKeys, progress: reach });
  }

  /** From the routed stream's first event (`next`, already asked for): the answer's status is decided here. */
  private async commit(call: MeteredCall, routed: AsyncGenerator<RoutedStreamEvent>, next: Promise<IteratorResult<RoutedStreamEvent>>, signal: AbortSignal | undefined, reach: ProviderReach): Promise<ChatStream> {
    let first: IteratorResult<RoutedStreamEvent>;
    try {
      first = await next;
    } catch (err) {
      if (signal?.aborted) {
        // the caller left before the first event: the prompt is owed once the provider may have billed it
        this.metering.settleLeft(call, reach, 0);
        throw new ChatCancelledError();
      }
      this.metering.release(call);
      throw err;
    }
    if (first.done || first.value.type !== 'start') {
      this.metering.release(call);
      throw new Error('chat router stream did not start with a start event');
    }
    const committed = new CommittedStream(routed, call, reach, this.metering, this.log, signal);
    if (signal?.aborted) {
      // the caller left while the first event was on its way: nothing will read this stream
      committed.abandon();
      throw new ChatCancelledError();
    }
    return { model: first.value.model, events: this.relay(committed, first.value.model) };
  }

  private async *relay(c: CommittedStream, model: AiModel): AsyncGenerator<ChatStreamOutput> {
    let content = '';
    try {
      for await (const event of c.routed) {
        if (c.isClosed) return; // abandoned meanwhile: already booked
        if (event.type === 'delta') {
          content += event.text;
          c.sent = content.length;
          yield { type: 'delta', text: event.text };
        } else if (event.type === 'done') {
          let settling: Promise<void> = Promise.resolve();
          if (!c.close(() => (settling = this.metering.settle(c.call, event.usage)))) return;
          // on its way to the database before the `done` frame is: a crash after it cannot make the call free
          await settling;
          yield { type: 'done', answer: { id: event.id, model: model.id, provider: model.provider, content, usage: event.usage, ...(event.finishReason ? { finishReason: event.finishReason } : {}) } };
          return;
        }
      }
      if (c.isClosed) return; // the routed stream was closed by abandon()
      throw new Error('chat router stream ended without done');
    } catch (err) {
      // the caller left (the provider call was aborted under us): abandon() books it
      if (c.isClosed || c.signal?.aborted) return;
      c.close(() => this.metering.release(c.call));
      if (!(err instanceof DomainError)) throw err;
      yield { type: 'error', code: err.code, message: err.message };
    } finally {
      // the caller stopped iterating (or aborted): settle to what was sent; nothing if already booked
      c.abandon();
    }
  }
}

/**
 * The part of a committed stream that must happen exactly once, whichever comes first: the
 * stream's own end (settle), its failure (release), or the caller leaving (settle to the prompt and
 * what was sent: ChatMetering.settleLeft). The caller leaving is watched on the abort signal too.
 */
class CommittedStream {
  /** Characters of completion handed to the consumer so far. */
  sent = 0;
  private closed = false;

  constructor(
    readonly routed: AsyncGenerator<RoutedStreamEvent>,
    readonly call: MeteredCall,
    private readonly reach: ProviderReach,
    private readonly metering: ChatMetering,
    private readonly log: Logger,
    readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener('abort', this.abandon, { once: true });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Books the call's units with `book` unless something already did; says whether this call did. */
  close(book: () => void): boolean {
    if (this.closed) return false;
    this.closed = true;
    this.signal?.removeEventListener('abort', this.abandon);
    book();
    return true;
  }

  /**
   * The caller left: settle to the prompt and what was sent, and close the routed stream (which
   * cancels the provider's request and gives the breaker's slot back). Harmless after the stream was booked.
   */
  readonly abandon = (): void => {
    if (!this.close(() => this.metering.settleLeft(this.call, this.reach, this.sent))) return;
    // queued behind a pending next() if the stream is mid-read; the aborted signal ends that read
    this.routed.return(undefined).catch((err: unknown) => this.log.warn({ err }, 'closing an abandoned chat stream failed'));
  };
}

/** Provider streams carry text only (AiProvider.stream): tools offered to a stream are not sent. */
const textRequest = (input: ChatInput) => providerRequest({ ...input, tools: undefined });
