/**
 * The two wire formats of the agent-host program, in one place: the IPC messages between the
 * supervisor (ProcessAgentRuntime) and the program, and the HTTP call the program makes to the
 * service. Both sides import this file, so it imports nothing.
 *
 * ## IPC (Node `fork` channel, JSON serialization), protocol version 1
 *
 * Every message is an object `{v: 1, type, ...}`; `id` correlates a request with its answers
 * (unique per supervisor, any string). Readiness: the program sends `hello` once it listens; the
 * supervisor answers `init` (the gateway token travels here, never in the environment, so it
 * is not readable from /proc/<pid>/environ), then `ping`; the program answers `pong` and is ready.
 *
 * supervisor → program
 * - `init`          `{gatewayToken}`: the instance's only credential; sent before anything else (over
 *                   a container's stdio, again at each attach: the same token)
 * - `ping`          `{id}` → `pong {id}`
 * - `deliver`       `{id, delivery, stream}` → zero or more `delta {id, content}` (only when
 *                   `stream`), then exactly one `reply {id, reply}` or `failed {id, code, error}`
 * - `cancel`        `{id}`: drop delivery `id` (its HTTP call is aborted); nothing more is sent for it
 * - `reset-memory`  `{id}` → `ack {id, cleared}`: every agent's in-process state is dropped
 * - `stats`         `{id}` → `ack {id, stats}`: its container's cgroup figures, read from inside
 *                   ({@link HostStats}; the swarm runtime's stats: a manager cannot read a container
 *                   on another node)
 * - test hooks, honoured only when the program runs with AGENT_HOST_TEST_HOOKS=1:
 *   `debug-allocate {id, bytes}` → `ack {id}` (keeps `bytes` of touched memory alive),
 *   `debug-state {id}` → `ack {id, agents}` (how many agents hold in-process state),
 *   `debug-block {id, ms}` → `ack {id}` once its event loop was blocked for `ms` (a stuck program)
 *
 * program → supervisor
 * - `hello` `{protocol, runtimeVersion, pid}`; `pong`, `delta`, `reply`, `failed`, `ack` as above.
 *
 * ## The service call relayed by the supervisor (AGENT_HOST_SERVICE_VIA=supervisor)
 *
 * A container without a network (the docker runtime's default) cannot reach the service: its HTTP
 * calls below travel over the same channel, and the supervisor makes them on its behalf, to its
 * own `serviceUrl`, on the two paths below only.
 * - program → supervisor `service-call {id, path, accept, authorization, body}` (body: the JSON
 *   text), later perhaps `service-abort {id}` (the call was cancelled: the supervisor drops it)
 * - supervisor → program `service-head {id, status, contentType}`, then `service-chunk {id, data}`
 *   (the body's text, in order), then `service-end {id}`; or `service-error {id}` when the service
 *   could not be reached or the answer broke off. Or the three at once, `service-answer {id,
 *   status, contentType, data}`, for an answer whole when it is sent (a forked program's calls
 *   answered in the supervisor's process: one IPC message instead of three).
 *
 * A forked program (the process runtime) relays the same way when its supervisor answers its
 * calls in its own process (RUNTIME_SERVICE_CALLS=ipc): no HTTP request at all.
 * - A delivery whose reply is the answer of one chat call, as it is (no tools, not streamed), names
 *   itself in that call: `service-call {..., final: deliveryId}`. When the answer is whole at once,
 *   2xx JSON and a {@link RuntimeChatResult}, the supervisor takes it as the delivery's `reply`
 *   itself and sends the program `service-final {id}` instead of the answer: the delivery is done,
 *   nothing more comes for the call, and the program sends no `reply` (two crossings fewer on every
 *   message, decision 0478). Any other answer crosses as above and the program replies or fails as
 *   always. A supervisor that does not know `final` ignores it; a program that does not send it is
 *   answered as always.
 * - supervisor → program `service-final {id}`, as just said.
 * - supervisor → program `service-reset`, first on every new attach: the calls relayed over an
 *   earlier stream are lost with it, and fail at once instead of at the idle timeout.
 *
 * ## HTTP: the program asks the service for a completion (ONE call per delivery without tools)
 *
 * `POST {serviceUrl}/api/runtime/chat`
 * headers `Authorization: Bearer <gatewayToken>`, `Content-Type: application/json`,
 * `Accept: text/event-stream` (streaming) or `Accept: application/json`
 * body {@link RuntimeChatRequest}: `{agentId, model, messages, temperature?, max_tokens?}`
 *
 * - JSON answer: 200 {@link RuntimeChatResult} `{content, model, usage}`.
 * - Streaming answer: 200 `Content-Type: text/event-stream`, named events whose `data` is JSON:
 *   `event: delta` `{content}` (a piece of text, in order), then exactly one of
 *   `event: done` {@link RuntimeChatResult} (`content` is the whole answer) or
 *   `event: error` {@link RuntimeChatError} `{error, code}`. A stream ending without either is a failure.
 * - Any non-2xx status: a JSON body {@link RuntimeChatError} `{error, code}` (the service's usual
 *   error shape, e.g. 401 UNAUTHORIZED for a bad token, 402 USAGE_EXHAUSTED, 502 PROVIDER_ERROR).
 *
 * The program turns every failure into `failed {code}`: the service's `code` when it sent one,
 * else one of {@link HOST_FAILURE}; it never invents a reply.
 *
 * ## Tools (a delivery with `tools`)
 *
 * The program offers `tools` ({@link RuntimeTool}: OpenAI's function shape) in its chat calls,
 * non-streamed (`Accept: application/json`) while tools are offered; an answer with
 * `tool_calls` ({@link RuntimeToolCall}) is followed by one call per tool, in order:
 *
 * `POST {serviceUrl}/api/runtime/tools`, same headers, body {@link RuntimeToolRequest}
 * `{agentId, name, arguments}` → 200 with the tool's result for the model: `{success: true, ...}`
 * or a refusal `{error, code}` (both are results, JSON-serialised into the `tool` message); any
 * non-2xx is `{error, code}` and fails the delivery (401 bad token, 404 not this instance's agent).
 *
 * The program then appends the assistant turn (`tool_calls`) and one `tool` message per call
 * (`{role: 'tool', tool_call_id, name, content}`) and asks again, at most `maxToolSteps` model
 * calls in all; the last allowed call sends `tool_choice: 'none'` so the model must answer in
 * text. A model that still asks for tools then fails the delivery with
 * {@link HOST_FAILURE.toolStepLimit}. The final text is the reply (usage summed over the calls);
 * when the supervisor asked for a stream it arrives as one `delta` before the `reply`.
 */
export const PROTOCOL_VERSION = 1;

/** The runtime's path on the service. */
export const RUNTIME_CHAT_PATH = '/api/runtime/chat';
/** Where the program asks the service to run one tool call. */
export const RUNTIME_TOOLS_PATH = '/api/runtime/tools';

/** Codes the program itself reports when the service gave none. */
export const HOST_FAILURE = {
  /** The service could not be reached (connection refused, reset). */
  unreachable: 'SERVICE_UNREACHABLE',
  /** No answer (or no stream progress) within the program's request timeout. */
  timeout: 'SERVICE_TIMEOUT',
  /** A non-2xx answer without a `code`, a body that is not the format above, a stream cut short. */
  badResponse: 'BAD_RESPONSE',
  /** A `deliver` before `init`, or a malformed delivery. */
  badRequest: 'BAD_REQUEST',
  /** The program's own fault while working (an exception). */
  internal: 'RUNTIME_ERROR',
  /** The model still asked for tools on the last call `maxToolSteps` allows. */
  toolStepLimit: 'TOOL_STEP_LIMIT',
} as const;

// ---- HTTP wire format -------------------------------------------------------------------------

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: RuntimeToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string; name: string };

export interface RuntimeTool {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface RuntimeToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it. */
  arguments: string;
}

export interface RuntimeToolRequest {
  agentId: string;
  name: string;
  arguments: string;
}

export interface RuntimeChatRequest {
  agentId: string;
  model: string;
  /** System prompt, memory (as a second system message), history oldest first, the new user message. */
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  tools?: RuntimeTool[];
  /** `none`: tools are described but may not be called (the last step). */
  tool_choice?: 'auto' | 'none';
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface RuntimeChatResult {
  content: string;
  model: string;
  usage: ChatUsage;
  /** Present when the model asked for tools (non-streamed answers only). */
  tool_calls?: RuntimeToolCall[];
}

export interface RuntimeChatError {
  error: string;
  code: string;
}

// ---- IPC messages -----------------------------------------------------------------------------

/** What `deliver` carries: the port's Delivery, as plain JSON. */
export interface WireDelivery {
  agentId: string;
  model: string;
  content: string;
  config: Record<string, unknown>;
  memory: Record<string, unknown>;
  history: { role: 'user' | 'assistant'; content: string }[];
  tools?: RuntimeTool[];
  maxToolSteps?: number;
}

/** The program's container as its cgroup counts it (null: not readable there). */
export interface HostStats {
  /** Memory in use, without the reclaimable page cache, bytes. */
  memoryBytes: number | null;
  /** CPU time used since the container started, nanoseconds. */
  cpuNs: number | null;
  pids: number | null;
}

type V = { v: typeof PROTOCOL_VERSION };

export type SupervisorMessage = V &
  (
    | { type: 'init'; gatewayToken: string }
    | { type: 'ping'; id: string }
    | { type: 'deliver'; id: string; delivery: WireDelivery; stream: boolean }
    | { type: 'cancel'; id: string }
    | { type: 'reset-memory'; id: string }
    | { type: 'stats'; id: string }
    | { type: 'debug-allocate'; id: string; bytes: number }
    | { type: 'debug-state'; id: string }
    | { type: 'debug-block'; id: string; ms: number }
    | { type: 'service-head'; id: string; status: number; contentType: string }
    | { type: 'service-chunk'; id: string; data: string }
    | { type: 'service-end'; id: string }
    | { type: 'service-answer'; id: string; status: number; contentType: string; data: string }
    | { type: 'service-error'; id: string }
    | { type: 'service-reset' }
    | { type: 'service-final'; id: string }
  );

export type HostMessage = V &
  (
    | { type: 'hello'; protocol: number; runtimeVersion: string; pid: number }
    | { type: 'pong'; id: string }
    | { type: 'delta'; id: string; content: string }
    | { type: 'reply'; id: string; reply: RuntimeChatResult }
    | { type: 'failed'; id: string; code: string; error: string }
    | { type: 'ack'; id: string; cleared?: number; agents?: number; stats?: HostStats }
    | { type: 'service-call'; id: string; path: string; accept: string; authorization: string; body: string; final?: string }
    | { type: 'service-abort'; id: string }
  );

/** Spreads into a message literal: `{...msg, type: 'pong', id}`. */
export const msg = { v: PROTOCOL_VERSION } as const;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The message when it is one of ours (right version, a known shape of `type`), else null. */
export function readMessage<M extends { type: string }>(raw: unknown): (M & V) | null {
  if (!isObject(raw) || raw.v !== PROTOCOL_VERSION || typeof raw.type !== 'string') return null;
  return raw as unknown as M & V;
}

function isUsage(x: unknown): x is ChatUsage {
  return isObject(x) && [x.promptTokens, x.completionTokens, x.totalTokens].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0);
}

/** A `{content, model, usage}` body (JSON answer, or the `done` event), checked field by field. */
export function parseChatResult(x: unknown): RuntimeChatResult | null {
  if (!isObject(x) || typeof x.content !== 'string' || typeof x.model !== 'string' || !isUsage(x.usage)) return null;
  const { promptTokens, completionTokens, totalTokens } = x.usage;
  const result: RuntimeChatResult = { content: x.content, model: x.model, usage: { promptTokens, completionTokens, totalTokens } };
  if (x.tool_calls !== undefined) {
    if (!Array.isArray(x.tool_calls) || !x.tool_calls.every(isToolCall)) return null;
    if (x.tool_calls.length > 0) result.tool_calls = x.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
  }
  return result;
}

function isToolCall(x: unknown): x is RuntimeToolCall {
  return isObject(x) && typeof x.id === 'string' && typeof x.name === 'string' && typeof x.arguments === 'string';
}

/** An `{error, code}` body, or null when it is not one. */
export function parseChatError(x: unknown): RuntimeChatError | null {
  if (!isObject(x) || typeof x.code !== 'string' || x.code === '') return null;
  return { code: x.code, error: typeof x.error === 'string' ? x.error : x.code };
}
