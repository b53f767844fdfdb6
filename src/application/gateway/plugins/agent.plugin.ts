import { inject, injectable } from 'tsyringe';
import { SendAgentMessage, type SendOutcome } from '../../agents/send-agent-message.use-case.js';
import type { ChatPayment } from '../../ai/chat-metering.js';
import { CompleteChat } from '../../ai/complete-chat.use-case.js';
import { StreamChat } from '../../ai/stream-chat.use-case.js';
import { AuthRequiredError } from '../../auth/auth.errors.js';
import { UpstreamUnavailableError } from '../../errors.js';
import type { ChatMessage } from '../../ports/ai-provider.port.js';
import { DomainError } from '../../../domain/shared/domain-error.js';
import type { UserId } from '../../../domain/shared/ids.js';
import type { GatewayCall, GatewayPayer, GatewayPlugin, GatewayResult, GatewayStreamEvent } from '../../ports/gateway-plugin.port.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../ports/gateway-settings.port.js';
import { DEFAULT_AGENT_STEPS, MAX_AGENT_STEPS, finalAnswer, nextStep, taskPrompt, withoutMarker } from './agent-task.js';
import { chatPayment, maxTokensFor } from './payment.js';

/** The edge schema's body (maxSteps 1..10 checked there). */
export interface AgentInput {
  readonly task: string;
  readonly agentId?: string | undefined;
  readonly maxSteps?: number | undefined;
}

/** Where the task stands before its last call: answered early, or the messages the final call takes. */
type Progress = { readonly answer: string; readonly steps: number } | { readonly messages: ChatMessage[]; readonly steps: number };

/** An agent's failure codes the caller can act on keep their code (402, 403, 409, 429 through the error map). */
const KEPT_CODES = new Set(['USAGE_EXHAUSTED', 'PLAN_REQUIRED', 'SUBSCRIPTION_REQUIRED', 'MODEL_RESTRICTED', 'AGENT_NOT_RUNNING', 'PAYMENT_REQUIRED']);

/** Characters held back at the start of a streamed final answer, to strip a `FINAL:` marker the model put first. */
const MARKER_WINDOW = 16;

/**
 * `agent` `{task, agentId?, maxSteps?}`. Without `agentId`: a bounded task on the AI layer, at
 * most `maxSteps` (default 3) model calls, each one its own metered call for a metered payer
 * (agent-task.ts has the loop's rules); `message` is the final answer and `steps` the calls made.
 * With `agentId`: the task goes through that agent's mailbox exactly as POST /api/chat sends it,
 * for its owner only (another user's or an unknown agent: 404 through row-level security; a
 * payer not signed in: 401), and the agent's reply is the message (`steps`: 1). Through the
 * mailbox the agent's runtime pays its own model calls from the owner's units, as it always does.
 * A prepaid task's every model call answers at most GATEWAY_PREPAID_MAX_TOKENS.
 */
@injectable()
export class AgentPlugin implements GatewayPlugin<AgentInput> {
  readonly id = 'agent' as const;
  readonly name = 'Multi-step agent task';

  constructor(
    @inject(CompleteChat) private readonly complete: CompleteChat,
    @inject(StreamChat) private readonly streamChat: StreamChat,
    @inject(SendAgentMessage) private readonly send: SendAgentMessage,
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  async run(call: GatewayCall<AgentInput>): Promise<GatewayResult> {
    const { agentId } = call.input;
    if (agentId !== undefined) return { message: await this.throughMailbox(call.payer, agentId, call.input.task), extra: { steps: 1 } };
    const payment = chatPayment(call.payer);
    const maxTokens = maxTokensFor(call.payer, undefined, this.settings);
    const progress = await this.work(payment, call.input, maxTokens, call.signal);
    if ('answer' in progress) return { message: progress.answer, extra: { steps: progress.steps } };
    const last = await this.complete.execute(payment, { messages: progress.messages, maxTokens }, call.signal);
    return { message: withoutMarker(last.content), extra: { steps: progress.steps + 1 } };
  }

  async *stream(call: GatewayCall<AgentInput>): AsyncIterable<GatewayStreamEvent> {
    const { agentId } = call.input;
    if (agentId !== undefined) {
      const answer = await this.throughMailbox(call.payer, agentId, call.input.task);
      yield* whole(answer, 1);
      return;
    }
    const payment = chatPayment(call.payer);
    const maxTokens = maxTokensFor(call.payer, undefined, this.settings);
    const progress = await this.work(payment, call.input, maxTokens, call.signal);
    if ('answer' in progress) {
      yield* whole(progress.answer, progress.steps);
      return;
    }
    const { events } = await this.streamChat.execute(payment, { messages: progress.messages, maxTokens }, call.signal);
    let held = '';
    let sent = '';
    for await (const event of events) {
      if (event.type === 'error') throw new DomainError(event.code, event.message);
      if (event.type === 'delta') {
        if (sent === '' && held.length < MARKER_WINDOW) {
          held += event.text;
          if (held.length < MARKER_WINDOW) continue;
          sent = withoutMarker(held);
          if (sent !== '') yield { type: 'delta', content: sent };
          continue;
        }
        sent += event.text;
        yield { type: 'delta', content: event.text };
      } else {
        // an answer shorter than the window arrives here still held back
        if (sent === '' && held !== '') {
          sent = withoutMarker(held);
          if (sent !== '') yield { type: 'delta', content: sent };
        }
        yield { type: 'done', result: { message: sent, extra: { steps: progress.steps + 1 } } };
      }
    }
  }

  /** The working steps before the last call (none when maxSteps is 1). */
  private async work(payment: ChatPayment, input: AgentInput, maxTokens: number | undefined, signal: AbortSignal): Promise<Progress> {
    // the edge schema bounds it too; this bound holds for any caller
    const maxSteps = Math.min(Math.max(1, input.maxSteps ?? DEFAULT_AGENT_STEPS), MAX_AGENT_STEPS);
    let messages = taskPrompt(input.task, maxSteps);
    for (let step = 1; step < maxSteps; step++) {
      const answer = await this.complete.execute(payment, { messages, maxTokens }, signal);
      const final = finalAnswer(answer.content);
      if (final !== null) return { answer: final, steps: step };
      messages = nextStep(messages, answer.content, step + 1 === maxSteps);
    }
    return { messages, steps: maxSteps - 1 };
  }

  private async throughMailbox(payer: GatewayPayer, agentId: string, task: string): Promise<string> {
    const userId: UserId | null = payer.userId;
    // only an agent's owner may task it; an anonymous payment names nobody
    if (userId === null) throw new AuthRequiredError('Sign in as the agent\'s owner to give it a task');
    const outcome = await this.send.execute({ userId }, { agentId, content: task }, { channel: 'gateway' });
    return replyOf(outcome);
  }
}

function replyOf(outcome: SendOutcome): string {
  if (outcome.kind === 'answered') return outcome.reply.content;
  // the reply still arrives in the agent's history; this call, paid for an answer, failed
  if (outcome.kind === 'pending') throw new UpstreamUnavailableError('agent', 'The agent did not answer in time');
  if (outcome.code === 'PROVIDER_ERROR' || outcome.code === 'PROVIDER_UNAVAILABLE') throw new DomainError('PROVIDER_ERROR', outcome.error);
  if (KEPT_CODES.has(outcome.code)) throw new DomainError(outcome.code, outcome.error);
  throw new UpstreamUnavailableError('agent', outcome.error);
}

function* whole(answer: string, steps: number): Generator<GatewayStreamEvent> {
  if (answer !== '') yield { type: 'delta', content: answer };
  yield { type: 'done', result: { message: answer, extra: { steps } } };
}
