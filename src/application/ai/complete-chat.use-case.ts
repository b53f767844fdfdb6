import { inject, injectable } from 'tsyringe';
import { ChatCancelledError, type ChatAnswer, type ChatInput } from './chat-call.js';
import { ChatMetering, type ChatPayment } from './chat-metering.js';
import { ChatRouter } from './chat-router.js';

/**
 * One non-streamed chat call (`POST /api/ai/chat`), after AuthorizeChat: model allowed or
 * auto-selected → reserve (BYOK: nothing) → route with fallback → settle to the real usage, or
 * release on any failure (a prepaid gateway call, ChatPayment, reserves and settles nothing). A
 * provider failure surfaces as ProviderError (500 PROVIDER_ERROR) with nothing charged; the
 * caller leaving (`signal`) cancels the provider call and charges nothing.
 */
@injectable()
export class CompleteChat {
  constructor(
    @inject(ChatRouter) private readonly router: ChatRouter,
    @inject(ChatMetering) private readonly metering: ChatMetering,
  ) {}

  async execute(grant: ChatPayment, input: ChatInput, signal?: AbortSignal): Promise<ChatAnswer> {
    const call = await this.metering.open(grant, input);
    try {
      const routed = await this.router.complete(
        call.candidates,
        { messages: input.messages, temperature: input.temperature, topP: input.topP, maxTokens: input.maxTokens, ...(input.tools?.length ? { tools: input.tools, toolChoice: input.toolChoice } : {}) },
        { signal, byokKeys: call.byokKeys },
      );
      // on its way to the database before the answer is: a crash after the answer cannot make it free
      await this.metering.settle(call, routed.usage);
      return { id: routed.completion.id, model: routed.model.id, provider: routed.provider, content: routed.completion.content, usage: routed.usage, ...(routed.completion.toolCalls ? { toolCalls: routed.completion.toolCalls } : {}) };
    } catch (err) {
      this.metering.release(call);
      if (signal?.aborted) throw new ChatCancelledError();
      throw err;
    }
  }
}
