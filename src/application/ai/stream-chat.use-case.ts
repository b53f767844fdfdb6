import { inject, injectable } from 'tsyringe';
import type { AiModel } from '../../domain/ai/ai-model.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import { AI_SETTINGS, type AiSettings } from './ai-settings.js';
import type { ChatGrant } from './authorize-chat.use-case.js';
import { ChatCancelledError, chatCandidates, type ChatAnswer, type ChatInput } from './chat-call.js';
import { ChatMetering, type MeteredCall } from './chat-metering.js';
import { ChatRouter, type RoutedStreamEvent } from './chat-router.js';

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
 * reservation; the caller leaving (`signal`, or ending the iteration early) cancels the
 * provider's request and settles to what was sent (prompt plus streamed text), or releases when
 * nothing was; a normal end settles to the provider's counts.
 */
@injectable()
export class StreamChat {
  constructor(
    @inject(ChatRouter) private readonly router: ChatRouter,
    @inject(ChatMetering) private readonly metering: ChatMetering,
    @inject(AI_SETTINGS) private readonly settings: AiSettings,
  ) {}

  async execute(grant: ChatGrant, input: ChatInput, signal?: AbortSignal): Promise<ChatStream> {
    const candidates = chatCandidates(grant.level, input, this.settings.defaultModelId);
    const call = await this.metering.open(grant, candidates, input.model !== undefined, input);
    const routed = this.router.stream(
      call.candidates,
      { messages: input.messages, temperature: input.temperature, topP: input.topP, maxTokens: input.maxTokens },
      { signal, byokKeys: call.byokKeys },
    );
    let first: IteratorResult<RoutedStreamEvent>;
    try {
      first = await routed.next();
    } catch (err) {
      this.metering.release(call);
      if (signal?.aborted) throw new ChatCancelledError();
      throw err;
    }
    if (first.done || first.value.type !== 'start') {
      this.metering.release(call);
      throw new Error('chat router stream did not start with a start event');
    }
    return { model: first.value.model, events: this.relay(routed, call, first.value.model, signal) };
  }

  private async *relay(routed: AsyncGenerator<RoutedStreamEvent>, call: MeteredCall, model: AiModel, signal: AbortSignal | undefined): AsyncGenerator<ChatStreamOutput> {
    let content = '';
    let settled = false;
    try {
      for await (const event of routed) {
        if (event.type === 'delta') {
          content += event.text;
          yield { type: 'delta', text: event.text };
        } else if (event.type === 'done') {
          settled = true;
          this.metering.settle(call, event.usage);
          yield { type: 'done', answer: { id: event.id, model: model.id, provider: model.provider, content, usage: event.usage } };
          return;
        }
      }
      throw new Error('chat router stream ended without done');
    } catch (err) {
      if (signal?.aborted) return; // the caller left; `finally` settles what was sent
      settled = true;
      this.metering.release(call);
      if (!(err instanceof DomainError)) throw err;
      yield { type: 'error', code: err.code, message: err.message };
    } finally {
      if (!settled) {
        // the caller left (abort, or stopped iterating): close the provider's request first
        await routed.return(undefined);
        this.metering.settlePartial(call, content.length);
      }
    }
  }
}
