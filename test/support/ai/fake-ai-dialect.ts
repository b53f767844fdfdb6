import type { IncomingHttpHeaders } from 'node:http';

/** What the fake vendor does with the next calls (until changed). */
export type FakeBehaviour =
  /** A normal answer: `chunks` are the stream's deltas (joined for a non-streamed answer). */
  | { readonly kind: 'reply'; readonly chunks?: readonly string[]; readonly usage?: FakeUsage; readonly chunkDelayMs?: number }
  /** A non-2xx answer with the vendor's real error body for that status. */
  | { readonly kind: 'error'; readonly status: number }
  /** Waits `delayMs` before sending anything (then answers normally). */
  | { readonly kind: 'slow'; readonly delayMs: number }
  /**
   * Streams: sends `chunks` then holds the connection open forever (with `usage`'s prompt in the
   * head where the vendor reports it there: Anthropic's message_start). Non-streamed: never answers.
   */
  | { readonly kind: 'stall'; readonly chunks?: readonly string[]; readonly usage?: FakeUsage }
  /** 200 with a body that is not the vendor's format (invalid JSON). */
  | { readonly kind: 'malformed' }
  /** Streams: sends `chunks`, then the vendor's in-stream error event. */
  | { readonly kind: 'stream-error'; readonly chunks?: readonly string[] }
  /**
   * Non-streamed: asks for these tool calls in the vendor's real format (with `text` before them
   * when given); a stream request gets a 400 (tools are only offered on non-streamed calls).
   */
  | { readonly kind: 'tool-calls'; readonly calls: readonly FakeToolCall[]; readonly text?: string; readonly usage?: FakeUsage };

export interface FakeToolCall {
  /** The call id the vendor sends (Google sends none). */
  readonly id?: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

export interface FakeUsage {
  readonly prompt: number;
  readonly completion: number;
}

export const DEFAULT_CHUNKS = ['Hello', ', ', 'world', '!'] as const;
export const DEFAULT_USAGE: FakeUsage = { prompt: 12, completion: 4 };

/** One request as the dialect sees it. */
export interface DialectCall {
  readonly kind: 'complete' | 'stream' | 'models';
  /** The model name the client asked for (from path or body). */
  readonly model: string;
}

/** The vendor-specific part of a fake: routes, auth and the exact wire shapes. */
export interface Dialect {
  readonly basePath: string;
  route(method: string, path: string, body: any): DialectCall | undefined;
  /** undefined when authorised, else the vendor's auth error. */
  authError(headers: IncomingHttpHeaders, apiKey: string): { status: number; body: unknown } | undefined;
  errorBody(status: number): unknown;
  completion(model: string, text: string, usage: FakeUsage): unknown;
  /** A completion asking for tool calls, as the vendor writes it. */
  toolCallCompletion(model: string, text: string, calls: readonly FakeToolCall[], usage: FakeUsage): unknown;
  /** Complete SSE events (with their blank-line terminators), in order. */
  streamEvents(model: string, chunks: readonly string[], usage: FakeUsage): { head: string[]; delta: (text: string) => string; tail: string[] };
  streamError(): string;
  models(ids: readonly string[]): unknown;
}

/** One SSE event as the vendors write it. */
export const sse = (data: unknown, event?: string, eol = '\n'): string =>
  `${event === undefined ? '' : `event: ${event}${eol}`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`;
