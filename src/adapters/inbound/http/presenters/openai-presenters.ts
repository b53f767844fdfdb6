import { randomUUID } from 'node:crypto';
import type { AgentAnswerEvent } from '../../../../application/agents/stream-agent-reply.use-case.js';
import type { SendOutcome } from '../../../../application/agents/send-agent-message.use-case.js';
import type { ChatAnswer } from '../../../../application/ai/chat-call.js';
import type { CallerModels } from '../../../../application/agents/list-caller-models.use-case.js';
import type { ChatStream } from '../../../../application/ai/stream-chat.use-case.js';
import type { TokenUsage } from '../../../../application/ports/ai-provider.port.js';
import { agentFailureBody } from './agent-presenters.js';
import { httpErrorFor } from '../error-map.js';
import { AgentAnswerFailedError, HttpEdgeError } from '../http-error.js';
import { openAiErrorBody } from '../openai-error-body.js';

/**
 * The OpenAI-compatible API's answers, field by field: `chat.completion`, the `chat.completion.chunk`
 * events of a stream (`data: <json>` frames ending `data: [DONE]`), and the model list.
 */

type FinishReason = 'stop' | 'length' | 'tool_calls';

const seconds = (at: Date = new Date()) => Math.floor(at.getTime() / 1000);
const completionId = () => `chatcmpl-${randomUUID().replaceAll('-', '')}`;

/** The vendor's stop reason (`stop`, `end_turn`, `MAX_TOKENS`, ...) in OpenAI's words. */
function finishReason(answer: Pick<ChatAnswer, 'toolCalls' | 'finishReason'>): FinishReason {
  if (answer.toolCalls?.length) return 'tool_calls';
  return answer.finishReason && /length|max_tokens/i.test(answer.finishReason) ? 'length' : 'stop';
}

const usageBody = (u: TokenUsage) => ({ prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.totalTokens });
/** An agent's answer is not metered as one call (its own model calls are): no tokens to report. */
const NO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

const toolCallsBody = (answer: ChatAnswer) => answer.toolCalls?.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));

export function completionBody(answer: ChatAnswer) {
  const toolCalls = toolCallsBody(answer);
  return {
    id: answer.id,
    object: 'chat.completion' as const,
    created: seconds(),
    model: answer.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content: toolCalls && answer.content === '' ? null : answer.content, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: finishReason(answer),
      },
    ],
    usage: usageBody(answer.usage),
  };
}

export function modelListBody(m: CallerModels) {
  return {
    object: 'list' as const,
    data: [
      // the catalog has no dates of its own
      ...m.models.map((x) => ({ id: x.id, object: 'model' as const, created: 0, owned_by: x.provider })),
      ...m.agents.map((a) => ({ id: `agent/${a.id}`, object: 'model' as const, created: seconds(a.createdAt), owned_by: 'agent' })),
    ],
  };
}

/** One stream's chunks: one id, one creation time, `usage: null` on each but the usage chunk when usage was asked for. */
class Chunks {
  private readonly id = completionId();
  private readonly created = seconds();
  constructor(
    private readonly model: string,
    private readonly includeUsage: boolean,
  ) {}

  delta(delta: Record<string, unknown>, finish: FinishReason | null = null): string {
    return frame({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(this.includeUsage ? { usage: null } : {}) });
  }

  /** The finish chunk, the usage chunk when asked for, and the end. */
  *end(finish: FinishReason, usage: TokenUsage): Generator<string> {
    yield this.delta({}, finish);
    if (this.includeUsage) yield frame({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [], usage: usageBody(usage) });
    yield DONE;
  }
}

const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const DONE = 'data: [DONE]\n\n';

/** A failure after the stream began, as OpenAI's libraries read one: a `data` frame with `error`. */
function errorFrame(code: string, message: string): string {
  const { status, code: ours } = httpErrorFor(code, 'openai');
  return frame(openAiErrorBody(status, { error: message, code: ours }).body);
}

/** A committed chat stream (StreamChat) as chunks. */
export async function* streamChunks(stream: ChatStream, includeUsage: boolean): AsyncGenerator<string> {
  const c = new Chunks(stream.model.id, includeUsage);
  yield c.delta({ role: 'assistant', content: '' });
  for await (const e of stream.events) {
    if (e.type === 'delta') yield c.delta({ content: e.text });
    else if (e.type === 'done') yield* c.end(finishReason(e.answer), e.answer.usage);
    else yield errorFrame(e.code, e.message);
  }
}

/**
 * A whole answer as chunks: a streamed call that offers tools is answered by the provider at once
 * (provider streams carry text only), then told as OpenAI streams it: the text, then each tool call
 * as one `tool_calls` delta with its index, id, name and arguments.
 */
export async function* answerChunks(answer: ChatAnswer, includeUsage: boolean): AsyncGenerator<string> {
  const c = new Chunks(answer.model, includeUsage);
  yield c.delta({ role: 'assistant', content: '' });
  if (answer.content !== '') yield c.delta({ content: answer.content });
  for (const [index, call] of (toolCallsBody(answer) ?? []).entries()) yield c.delta({ tool_calls: [{ index, ...call }] });
  yield* c.end(finishReason(answer), answer.usage);
}

/**
 * An agent's streamed answer: its pieces as they were announced, then whatever of the stored reply
 * they missed (pieces are best effort; the reply is whole), or the failure as an error frame.
 */
export async function* agentChunks(events: AsyncIterable<AgentAnswerEvent>, model: string, includeUsage: boolean): AsyncGenerator<string> {
  const c = new Chunks(model, includeUsage);
  yield c.delta({ role: 'assistant', content: '' });
  let sent = '';
  for await (const e of events) {
    if (e.type === 'delta') {
      sent += e.text;
      yield c.delta({ content: e.text });
      continue;
    }
    const { outcome } = e;
    if (outcome.kind === 'answered') {
      const reply = outcome.reply.content;
      if (reply.startsWith(sent) && reply.length > sent.length) yield c.delta({ content: reply.slice(sent.length) });
      yield* c.end('stop', NO_USAGE);
    } else if (outcome.kind === 'failed') {
      const told = agentFailureBody(outcome.code, outcome.error);
      yield errorFrame(told.code, told.error);
    } else {
      const pending = agentReplyPending();
      yield errorFrame(pending.code, pending.message);
    }
    return;
  }
}

/** An agent's non-streamed answer as a completion; its failure as the error the handler answers. */
export function agentCompletionBody(outcome: SendOutcome, model: string) {
  if (outcome.kind === 'failed') throw new AgentAnswerFailedError(agentFailureBody(outcome.code, outcome.error));
  if (outcome.kind === 'pending') throw agentReplyPending();
  return completionBody({ id: completionId(), model, provider: 'agent', content: outcome.reply.content, usage: NO_USAGE });
}

/** No answer within the reply timeout: the question stays queued and its reply is stored in the agent's history. */
const agentReplyPending = () => new HttpEdgeError('AGENT_REPLY_PENDING', "The agent did not answer in time; its reply will be stored in the agent's history");
