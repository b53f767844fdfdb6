import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import type { ToolDefinition } from './ai-provider.port.js';

/**
 * Where a user's agents really run (CONTRACT.md section 7): one runtime per user instance,
 * hosting all of that user's agents. Only worker processes hold an AgentRuntime; api processes
 * ask a worker through the database and await the answer with a timeout.
 *
 * The runtime is what answers a message: it builds the prompt from what `deliver` hands it (the
 * agent's config, memory and recent history) and asks the service for the AI call over HTTP at
 * `serviceUrl`, authenticated only by the instance's gateway token; the service calls the
 * provider and meters the owner. A runtime never holds a service secret or a provider key.
 */
export interface AgentRuntime {
  /** Which adapter this is (`process`, `docker`), as AGENT_RUNTIME names it. */
  readonly kind: string;
  /**
   * Starts the user's instance, or joins it when it already runs with the same spec (idempotent:
   * a retried provision job calls it again). Resolves once the runtime answers its readiness
   * check; throws RuntimeUnavailableError when it cannot be started within the adapter's timeout.
   */
  start(spec: RuntimeSpec): Promise<void>;
  /** Stops the instance and waits for it to be gone; stopping one that does not run is not an error. */
  stop(userId: UserId): Promise<void>;
  /** True while the user's runtime is alive in this process's care. */
  isRunning(userId: UserId): boolean;
  /**
   * Hands one user message of one agent to the runtime and resolves with its answer. Calls for
   * the same agent must not overlap (the mailbox above guarantees one at a time per agent);
   * calls for different agents may. `onDelta` receives the answer's text as it is produced.
   * Rejects with RuntimeUnavailableError when the runtime is not running or dies meanwhile, with
   * RuntimeReplyError when the runtime answered with a failure (e.g. the provider failed), and
   * with an AbortError when `signal` aborts (the runtime is told to drop the work).
   */
  deliver(userId: UserId, delivery: Delivery, options?: { signal?: AbortSignal; onDelta?: (text: string) => void }): Promise<RuntimeReply>;
  /** Clears the runtime's in-process state of every agent (the stored memory is the caller's business). */
  resetMemory(userId: UserId): Promise<void>;
  /** Live figures from the operating system; null when the runtime does not run. */
  stats(userId: UserId): Promise<RuntimeStats | null>;
  /**
   * Called once for each runtime that ends without being asked to (a crash, a kill from
   * outside, the memory watchdog), within 5 seconds of it. Not called for `stop`.
   */
  onExit(listener: (userId: UserId, exit: RuntimeExit) => void): void;
  /** Stops every runtime (process shutdown). */
  close(): Promise<void>;
}
export const AGENT_RUNTIME: InjectionToken<AgentRuntime> = Symbol('AgentRuntime');

export interface RuntimeSpec {
  userId: UserId;
  /** The version of the agent-host program to run (`update` restarts on the current one). */
  runtimeVersion: string;
  /** The plan's RAM cap: heap limit and resident-memory watchdog. */
  ramCapBytes: number;
  /** The instance's gateway token: the runtime's only credential towards the service. */
  gatewayToken: string;
  /** Base URL the runtime calls for AI completions (e.g. `http://127.0.0.1:3000`). */
  serviceUrl: string;
}

export interface AgentConfig {
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
  [key: string]: unknown;
}

/** One message for one agent, with what the runtime needs to build the prompt. */
export interface Delivery {
  agentId: string;
  model: string;
  content: string;
  config: AgentConfig;
  /** The agent's key-value memory. */
  memory: Record<string, unknown>;
  /** Recent messages of the conversation, oldest first, not including `content`. */
  history: { role: 'user' | 'assistant'; content: string }[];
  /**
   * The agent's installed and enabled skills as tools (`<slug>__<action>`); absent or empty: the
   * runtime answers with one model call, as before tools existed.
   */
  tools?: ToolDefinition[];
  /** Model calls allowed for this answer while tools are offered (AGENT_MAX_TOOL_STEPS). */
  maxToolSteps?: number;
}

export interface RuntimeReply {
  content: string;
  /** The model that answered, as the service reported it. */
  model: string;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  durationMs: number;
}

export interface RuntimeStats {
  /** CPU busy percent of the runtime's processes since the previous sample (0-100 per core summed). */
  cpuPercent: number;
  /** Resident memory of the runtime's processes, bytes. */
  rssBytes: number;
  /** rssBytes as a percent of the plan's RAM cap. */
  memoryPercent: number;
  /** Number of processes of the runtime (the host and its children). */
  pids: number;
  uptimeMs: number;
}

export interface RuntimeExit {
  /** `crashed` (exited or killed on its own), `memory_cap` (stopped by the watchdog above its cap). */
  reason: 'crashed' | 'memory_cap';
  code: number | null;
  signal: string | null;
  /** Human-readable, for the agent event and the log. */
  detail: string;
}
