import { inject, injectable } from 'tsyringe';
import { ChatCancelledError, providerRequest, type ChatAnswer, type ChatInput } from './chat-call.js';
import { ChatMetering, type ChatPayment, type MeteredCall, type OpeningAhead } from './chat-metering.js';
import { ChatRouter, type RoutedCompletion } from './chat-router.js';
import { abortable } from './abortable.js';
import { ProviderReach } from './provider-reach.js';

/**
 * One non-streamed chat call (`POST /api/ai/chat`), after AuthorizeChat: model allowed or
 * auto-selected → reserve (BYOK: nothing) → route with fallback → settle to the real usage, or
 * release on any failure (a prepaid gateway call, ChatPayment, reserves and settles nothing). A
 * provider failure surfaces as ProviderError (500 PROVIDER_ERROR) with nothing charged; the
 * caller leaving (`signal`) cancels the provider call and, once its request had gone out (the
 * vendor may bill the prompt), settles to the prompt, else charges nothing (decision 0419).
 *
 * When this process's view of the payer's allowance covers the call (ChatMetering.openAhead,
 * decision 0374), the provider is called beside the reservation rather than after it; the answer
 * still waits for the reservation, and a call whose reservation fails (or opens otherwise: BYOK,
 * another level) has its provider call aborted and answers exactly as if it had never been made.
 */
@injectable()
export class CompleteChat {
  constructor(
    @inject(ChatRouter) private readonly router: ChatRouter,
    @inject(ChatMetering) private readonly metering: ChatMetering,
  ) {}

  async execute(grant: ChatPayment, input: ChatInput, signal?: AbortSignal): Promise<ChatAnswer> {
    const ahead = this.metering.openAhead(grant, input);
    if (ahead) return this.executeAhead(ahead, input, signal);
    const call = await this.metering.open(grant, input);
    const reach = new ProviderReach();
    return this.answer(call, this.route(call, input, signal, reach), signal, reach);
  }

  private async executeAhead(ahead: OpeningAhead, input: ChatInput, signal: AbortSignal | undefined): Promise<ChatAnswer> {
    const provider = abortable(signal);
    const reach = new ProviderReach();
    const routing = this.router.complete(ahead.candidates, providerRequest(input), { signal: provider.signal, progress: reach });
    routing.catch(() => undefined); // awaited only once the reservation is taken
    let call: MeteredCall;
    try {
      call = await ahead.opening;
    } catch (refusal) {
      provider.abort(); // no reservation: the provider's answer is never delivered, nothing charged
      throw refusal;
    }
    if (call.candidates !== ahead.candidates || call.byokKeys) {
      // opened otherwise than guessed (BYOK, another level): as if the early call had never been made
      provider.abort();
      const rerouted = new ProviderReach();
      return this.answer(call, this.route(call, input, signal, rerouted), signal, rerouted);
    }
    return this.answer(call, routing, signal, reach);
  }

  private route(call: MeteredCall, input: ChatInput, signal: AbortSignal | undefined, reach: ProviderReach): Promise<RoutedCompletion> {
    return this.router.complete(call.candidates, providerRequest(input), { signal, byokKeys: call.byokKeys, progress: reach });
  }

  private async answer(call: MeteredCall, routing: Promise<RoutedCompletion>, signal: AbortSignal | undefined, reach: ProviderReach): Promise<ChatAnswer> {
    try {
      const routed = await routing;
      // on its way to the database before the answer is: a crash after the answer cannot make it free
      await this.metering.settle(call, routed.usage);
      return { id: routed.completion.id, model: routed.model.id, provider: routed.provider, content: routed.completion.content, usage: routed.usage, ...(routed.completion.finishReason ? { finishReason: routed.completion.finishReason } : {}), ...(routed.completion.toolCalls ? { toolCalls: routed.completion.toolCalls } : {}) };
    } catch (err) {
      if (signal?.aborted) {
        // the caller left: the prompt is owed once the provider may have billed it
        this.metering.settleLeft(call, reach, 0);
        throw new ChatCancelledError();
      }
      this.metering.release(call);
      throw err;
    }
  }
}
