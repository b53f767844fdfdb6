import type { AiModel } from '../../domain/ai/ai-model.js';
import { requireAllowedModel } from '../../domain/ai/chat-access.js';
import { ToolsUnsupportedError } from '../../domain/ai/ai.errors.js';
import { callsTools, modelsForLevel, requireModel } from '../../domain/ai/model-catalog.js';
import { DEFAULT_TASK_TYPE, selectModels } from '../../domain/ai/task-types.js';
import type { ChatLevel } from '../../domain/billing/plan-catalogs.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import { NotFoundError } from '../errors.js';
import type { ChatMessage, ChatRequest, TokenUsage, ToolCall, ToolChoice, ToolDefinition } from '../ports/ai-provider.port.js';

/** A validated chat body (the edge has checked shapes and ranges). */
export interface ChatInput {
  readonly messages: readonly ChatMessage[];
  readonly model?: string | undefined;
  readonly taskType?: string | undefined;
  readonly temperature?: number | undefined;
  readonly topP?: number | undefined;
  readonly maxTokens?: number | undefined;
  /** Offered to the model (the agent runtime's calls); non-streamed calls only. */
  readonly tools?: readonly ToolDefinition[] | undefined;
  readonly toolChoice?: ToolChoice | undefined;
  /** Sequences that end the answer (at most 4, OpenAI's bound). */
  readonly stop?: readonly string[] | undefined;
  /** `json`: the answer must be a JSON object (providers that have such a mode are told so). */
  readonly responseFormat?: 'text' | 'json' | undefined;
}

/** The answer of a chat call, as the spec's response carries it. */
export interface ChatAnswer {
  readonly id: string;
  readonly model: string;
  readonly provider: string;
  readonly content: string;
  readonly usage: TokenUsage;
  /** The tools the model asked to call; absent when none. */
  readonly toolCalls?: readonly ToolCall[];
  /** The vendor's stop reason as it sent it (`stop`, `end_turn`, `MAX_TOKENS`, ...), when it sent one. */
  readonly finishReason?: string;
}

/**
 * The models a call may use, in order: the first is the one asked for (or the task type's choice),
 * the rest are fallbacks of the same task type within the level. Never a model above the level,
 * and, when tools are offered, never one that cannot call them (`callsTools`).
 * Throws UnknownModelError (400), ModelRestrictedError (403), UnknownTaskTypeError (400),
 * ToolsUnsupportedError (400) for a chosen model that cannot call the tools offered, and
 * NotFoundError (404) when no model of the level serves the task type.
 */
export function chatCandidates(level: ChatLevel, input: Pick<ChatInput, 'model' | 'taskType' | 'tools'>, defaultModelId: string): readonly AiModel[] {
  const taskType = input.taskType ?? DEFAULT_TASK_TYPE;
  const tools = Boolean(input.tools?.length);
  const key = `${level}\0${taskType}\0${defaultModelId}\0${input.model ?? ''}\0${tools ? 't' : ''}`;
  const known = CANDIDATES.get(key);
  if (known) return known;
  const allowed = tools ? modelsForLevel(level).filter(callsTools) : modelsForLevel(level);
  let candidates: readonly AiModel[];
  if (input.model !== undefined) {
    const chosen = requireAllowedModel(requireModel(input.model), level);
    if (tools && !callsTools(chosen)) throw new ToolsUnsupportedError(chosen.id);
    candidates = [chosen, ...selectModels(taskType, allowed, defaultModelId).filter((m) => m.id !== chosen.id)];
  } else {
    candidates = selectModels(taskType, allowed, defaultModelId);
    if (candidates.length === 0) throw new NotFoundError(`AI model for task type ${taskType} on the ${level} plan`);
  }
  // only what passed the checks is kept: levels, task types and catalog models are few, so is this
  CANDIDATES.set(key, Object.freeze(candidates));
  return candidates;
}

/**
 * chatCandidates' answers: a pure function of its arguments over the fixed catalog, asked on every
 * chat call. Keys exist only for known levels, task types and allowed catalog models (anything else
 * throws first), and the default model is one configured value: bounded by the catalog's size.
 */
const CANDIDATES = new Map<string, readonly AiModel[]>();

/** The caller closed the connection before the answer: nothing to answer, nothing charged. */
export class ChatCancelledError extends DomainError {
  constructor() {
    super('CLIENT_CLOSED_REQUEST', 'The client closed the request');
  }
}

/** What the router sends of a chat body (the model is chosen by routing): tools only when some are offered. */
export function providerRequest(input: ChatInput): Omit<ChatRequest, 'model'> {
  return {
    messages: input.messages,
    temperature: input.temperature,
    topP: input.topP,
    maxTokens: input.maxTokens,
    ...(input.tools?.length ? { tools: input.tools, toolChoice: input.toolChoice } : {}),
    ...(input.stop?.length ? { stop: input.stop } : {}),
    ...(input.responseFormat ? { responseFormat: input.responseFormat } : {}),
  };
}
