import type { InjectionToken } from 'tsyringe';

/** Which of the runtime's two service calls: `POST /api/runtime/chat` or `POST /api/runtime/tools`. */
export type RuntimeServiceCallKind = 'chat' | 'tools';

/** One call of an agent runtime, as its program made it: the HTTP request's parts that matter. */
export interface RuntimeServiceCall {
  kind: RuntimeServiceCallKind;
  /** The `Authorization` header the program sent (`Bearer <gatewayToken>`). */
  authorization: string;
  /** The `Accept` header: `text/event-stream` asks for a streamed chat answer. */
  accept: string;
  /** The request body, JSON text. */
  body: string;
}

/** Where the answer goes, in the HTTP route's own form: one `head`, then `chunk`s of the body, then `end`. */
export interface RuntimeCallAnswer {
  head(status: number, contentType: string): void;
  chunk(data: string): void;
  end(): void;
}

/**
 * The service side of an agent runtime's calls, answered in the process that supervises the
 * runtime instead of through the service's HTTP listener (AGENT_RUNTIME=process: the program's
 * calls travel over its IPC channel). The answer is the one `POST /api/runtime/chat` and
 * `/api/runtime/tools` give: same authorisation, same metering, same statuses and codes, so the
 * program cannot tell the two paths apart.
 */
export interface RuntimeServiceCalls {
  /**
   * Answers `call` into `to`. `signal` aborts when the program drops the call (its delivery was
   * cancelled, or it ended): the provider call is aborted and its reservation released, as when an
   * HTTP client goes away. Never rejects: every failure is an answer (`{error, code}`).
   */
  answer(call: RuntimeServiceCall, to: RuntimeCallAnswer, signal: AbortSignal): Promise<void>;
}

export const RUNTIME_SERVICE_CALLS: InjectionToken<RuntimeServiceCalls> = Symbol('RuntimeServiceCalls');
