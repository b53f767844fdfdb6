import type { InjectionToken } from 'tsyringe';
import type { AiProviderName } from '../../domain/ai/ai-model.js';

export { ProviderError, ProviderUnavailableError, type ProviderErrorKind } from '../ai/ai-provider.errors.js';

export type ChatRole = 'user' | 'assistant' | 'system' | 'tool';

/**
 * Tool calling speaks OpenAI's Chat Completions shapes as the lingua franca; the Anthropic and
 * Google adapters map them to `tool_use`/`tool_result` blocks and `functionCall`/`functionResponse` parts.
 */
export interface ToolCall {
  /** The vendor's id of the call (generated when the vendor sends none, as Google does). */
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text (OpenAI sends text; the others' objects are serialised). */
  readonly arguments: string;
}

export interface ToolDefinition {
  /** `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's rule, the strictest of the three). */
  readonly name: string;
  readonly description: string;
  /** A JSON schema of an object. */
  readonly parameters: Record<string, unknown>;
}

/**
 * Whether and which tool the model must call: `auto` (it decides), `none` (text only, the tools
 * described), `required` (some tool), or the named tool.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

export interface ChatMessage {
  readonly role: ChatRole;
  readonly content: string;
  /** An assistant message that asked for tools. */
  readonly toolCalls?: readonly ToolCall[];
  /** A `tool` message: the result of this call. */
  readonly toolCallId?: string;
  /** A `tool` message: the called tool's name (Google matches results by name). */
  readonly toolName?: string;
}

export interface ChatRequest {
  /** The catalog id (`<vendor>/<model>`); the adapter maps it to its provider's model name. */
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  /** Tools the model may call; absent or empty: none offered. */
  readonly tools?: readonly ToolDefinition[];
  /** Sent only with tools (ToolChoice). */
  readonly toolChoice?: ToolChoice;
  /** Sequences that end the answer (each vendor's stop sequences). */
  readonly stop?: readonly string[];
  /** `json`: a JSON object is asked for, where the vendor has such a mode (Anthropic has none: the prompt must say it). */
  readonly responseFormat?: 'text' | 'json';
}

export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

export interface ChatCompletion {
  /** The provider's response id (generated when the provider sends none). */
  readonly id: string;
  /** The catalog id that was asked for. */
  readonly model: string;
  readonly content: string;
  readonly usage: TokenUsage;
  /** The vendor's stop reason as sent (`stop`, `end_turn`, `STOP`, ...), when it sent one. */
  readonly finishReason?: string;
  /** The tools the model asked to call, in order; absent when it asked for none. */
  readonly toolCalls?: readonly ToolCall[];
}

/** Text deltas in order, then exactly one `done` as the last event. */
export type ChatStreamEvent =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'done'; readonly id: string; readonly usage: TokenUsage; readonly finishReason?: string };

/**
 * What a caller who leaves before the answer still owes depends on how far the call got
 * (decision 0419): told once the request has gone out, and of the vendor's prompt count when the
 * vendor reports it before the answer is complete.
 */
export interface CallProgress {
  /** The request's last byte was handed to the network: from here on the vendor may bill its prompt. */
  sent(): void;
  /** The vendor's own count of the prompt's tokens (Anthropic's `message_start`, Google's chunks). */
  promptTokens(tokens: number): void;
}

export interface ProviderCallOptions {
  /** Aborting cancels the HTTP request, mid-stream too; the call then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Told how far the call got; absent when nobody meters a call left part way. */
  readonly progress?: CallProgress;
  /** A user's own key (BYOK): used instead of the configured key, and makes the call possible without one. */
  readonly apiKey?: string;
  /** Overrides the adapter's configured timeout for this call. */
  readonly timeoutMs?: number;
}

/**
 * One AI vendor. Every method rejects with:
 * - `ProviderUnavailableError` when neither a configured key nor `opts.apiKey` exists (nothing is sent);
 * - `ProviderError` for everything the vendor or the network does wrong (kind `http`, `network`,
 *   `bad_response`, `timeout`);
 * - the signal's reason (an `AbortError` by default) when the caller aborted, never a ProviderError,
 *   so routers can tell "the user left" from "the provider failed".
 * Implementations are stateless per call and safe to use concurrently.
 */
export interface AiProvider {
  readonly name: AiProviderName;

  /** True when the platform can call it without a user key (key, or for Ollama a base URL, configured). */
  isConfigured(): boolean;

  /** One non-streamed completion. The timeout covers the whole call, body included. */
  complete(request: ChatRequest, opts?: ProviderCallOptions): Promise<ChatCompletion>;

  /**
   * A streamed completion: `delta` events, then one `done` carrying usage (the vendor's counts;
   * estimated at 4 characters a token when the vendor sends none). The timeout is an idle
   * timeout: until the response headers and between two chunks. Stopping iteration early or
   * aborting the signal closes the HTTP connection. Errors surface from the iterator.
   * Text only: a caller offering tools uses `complete` (the agent runtime does).
   */
  stream(request: ChatRequest, opts?: ProviderCallOptions): AsyncIterable<ChatStreamEvent>;

  /** The vendor's model names. A cheap call that is never billed: used for health checks. */
  listModels(opts?: ProviderCallOptions): Promise<string[]>;
}

/** All providers, in `AI_PROVIDER_NAMES` order; the chat router and health check take this. */
export const AI_PROVIDERS: InjectionToken<AiProvider[]> = Symbol('AiProviders');
