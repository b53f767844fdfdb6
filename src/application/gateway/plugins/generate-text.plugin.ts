import { inject, injectable } from 'tsyringe';
import type { ChatInput } from '../../ai/chat-call.js';
import { CompleteChat } from '../../ai/complete-chat.use-case.js';
import { StreamChat } from '../../ai/stream-chat.use-case.js';
import { DomainError } from '../../../domain/shared/domain-error.js';
import type { ChatMessage } from '../../ports/ai-provider.port.js';
import type { GatewayCall, GatewayPlugin, GatewayResult, GatewayStreamEvent } from '../../ports/gateway-plugin.port.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../ports/gateway-settings.port.js';
import { chatPayment, maxTokensFor } from './payment.js';

/** The edge schema's body (CONTRACT.md section 7): exactly one of `prompt` and `messages`. */
export interface GenerateTextInput {
  readonly prompt?: string | undefined;
  readonly messages?: readonly ChatMessage[] | undefined;
  readonly model?: string | undefined;
  readonly max_tokens?: number | undefined;
  readonly temperature?: number | undefined;
}

/**
 * `generate-text`: one chat call through the AI layer, plan-gated like /api/ai/chat. A metered
 * payer goes through CompleteChat/StreamChat with its grant (its level's models, BYOK,
 * reserve → settle, release on failure or abort); a prepaid one through the same use cases with
 * nothing reserved, and at most GATEWAY_PREPAID_MAX_TOKENS of answer (that many when it names
 * none: a provider's own default may be far larger). `message` is the generated text.
 */
@injectable()
export class GenerateTextPlugin implements GatewayPlugin<GenerateTextInput> {
  readonly id = 'generate-text' as const;
  readonly name = 'LLM text generation';

  constructor(
    @inject(CompleteChat) private readonly complete: CompleteChat,
    @inject(StreamChat) private readonly streamChat: StreamChat,
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  async run(call: GatewayCall<GenerateTextInput>): Promise<GatewayResult> {
    const answer = await this.complete.execute(chatPayment(call.payer), this.chatInput(call), call.signal);
    return { message: answer.content };
  }

  async *stream(call: GatewayCall<GenerateTextInput>): AsyncIterable<GatewayStreamEvent> {
    const { events } = await this.streamChat.execute(chatPayment(call.payer), this.chatInput(call), call.signal);
    for await (const event of events) {
      if (event.type === 'delta') yield { type: 'delta', content: event.text };
      else if (event.type === 'done') yield { type: 'done', result: { message: event.answer.content } };
      // the provider failed mid-stream (already released): the contract says errors surface from the iterator
      else throw new DomainError(event.code, event.message);
    }
  }

  private chatInput({ input, payer }: GatewayCall<GenerateTextInput>): ChatInput {
    return {
      messages: input.messages ?? [{ role: 'user', content: input.prompt ?? '' }],
      model: input.model,
      maxTokens: maxTokensFor(payer, input.max_tokens, this.settings),
      temperature: input.temperature,
    };
  }
}
