import type { InjectionToken } from 'tsyringe';

/** Which of the agent host's two calls to the service: `POST /api/runtime/chat` or `POST /api/runtime/tools`. */
export type HostCallKind = 'chat' | 'tools';

/**
 * One call of an agent host to the service, as the door takes it from either transport: from the
 * HTTP route, or from the hosting adapter's relay, which read it from the host's channel (its IPC
 * channel, or a container's attach stream) and checked it as a frame (a known route, a body of
 * bounded size). The request itself (the token, the JSON, its schema) is the door's to check.
 */
export interface HostCall<K extends HostCallKind = HostCallKind> {
  kind: K;
  /**
   * The gateway token: over HTTP the request's `Bearer` (undefined without one: 401); from a relay
   * always the instance's own, which the relay holds since the instance started, never a header
   * the host sent.
   */
  token: string | undefined;
  /** Whether the host asked for a streamed chat answer (its `Accept` named `text/event-stream`). */
  stream: boolean;
  /** The request body, JSON text, unparsed. */
  body: string;
}

/** Where the answer goes, in the HTTP route's own form: one `head`, then `chunk`s of the body, then `end`. */
export interface HostCallAnswer {
  head(status: number, contentType: string): void;
  chunk(data: string): void;
  end(): void;
}

/**
 * The service's door for an agent host's calls, as a relay reaches it: answered in this process
 * (the inbound door, in-process-host-calls.ts), or through the service's HTTP listener
 * (http-host-calls.ts). Either way the answer is the one `POST /api/runtime/chat` and
 * `/api/runtime/tools` give: same authorisation, same metering, same statuses and codes.
 */
export interface HostCalls {
  /**
   * Answers `call` into `to`. `signal` aborts when the host drops the call (its delivery was
   * cancelled, or it ended): the provider call is aborted and its reservation released, as when an
   * HTTP client goes away. A refusal or failure of the service is an answer (`{error, code}`);
   * rejects only when the answer cannot be given whole (the service could not be reached, or broke
   * off mid-answer), and the relay then tells the host the call failed.
   */
  answer(call: HostCall, to: HostCallAnswer, signal: AbortSignal): Promise<void>;
}

export const HOST_CALLS: InjectionToken<HostCalls> = Symbol('HostCalls');
