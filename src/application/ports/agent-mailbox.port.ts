import type { InjectionToken } from 'tsyringe';
import type { Agent } from '../../domain/agents/agent.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { AgentMessage } from './agent-message-repository.port.js';
import type { InstalledSkillRecord } from './skill-install-repository.port.js';
import type { McpServerTools } from './mcp-server-repository.port.js';

/** Where a user message stands in its agent's mailbox. */
export type MailboxStatus = 'queued' | 'working' | 'answered' | 'failed';

export interface MailboxOutcome {
  status: MailboxStatus;
  /** The stored answer (role assistant), once `answered`. */
  replyMessageId: string | null;
  /** Why it failed (the code the runtime or the service reported), once `failed`. */
  errorCode: string | null;
  error: string | null;
}

/** The acting user's side of the mailbox (user unit of work; RLS scopes it). */
export interface UserMailbox {
  /** Queues a stored user message for its agent's answer; committed with the message itself. */
  enqueue(messageId: string, agentId: string): Promise<void>;
  /** Where the user's message stands; null when it is not theirs or not queued at all. */
  outcome(messageId: string): Promise<MailboxOutcome | null>;
}

/** A message a worker claimed: it alone answers it, and no other message of the agent is worked on meanwhile. */
export interface ClaimedMessage {
  messageId: string;
  /** This claim's name (MailboxClaim): closing the message names it, so a superseded attempt writes nothing. */
  claimId: string;
  agentId: string;
  userId: UserId;
  content: string;
  /** The message's session: the reply joins it. */
  sessionId: string | null;
  createdAt: Date;
  attempts: number;
  /** Another message of the user was queued when this one was claimed (as the claim's snapshot saw it). */
  othersQueued: boolean;
}

/** A claimed message with what its answer needs, read by the claim's own statement. */
export interface ClaimedWithContext {
  claimed: ClaimedMessage;
  /** The message's agent; null when it is gone. */
  agent: Agent | null;
  /** As SystemAgentMessageRepository.history gives it for the message's agent and session. */
  history: AgentMessage[];
  /** The agent's installed skills (SystemSkillInstalls.listForAgent). */
  installs: InstalledSkillRecord[];
  /** The agent's memory entries (SystemAgentMemoryRepository.entriesOf). */
  memory: Record<string, unknown>;
  /** The agent's MCP servers' tools, in the order they were added (SystemMcpServers.listForAgent's, projected). */
  mcpServers: McpServerTools[];
}

/**
 * A claim as the claiming worker names it before claiming: `claimId` is new for each claim (so a
 * claim whose result was lost, e.g. in an outage, can still be handed back by it), `workerId` the
 * worker's identity (InstanceLeases.workerId).
 */
export interface MailboxClaim {
  claimId: string;
  workerId: string;
}

/** The workers' side (system unit of work). */
export interface SystemMailbox {
  /** Users with messages queued or working, oldest first (at most `limit`). */
  usersWithWork(limit: number): Promise<UserId[]>;
  /**
   * Claims the oldest queued message of one of the user's agents that has no message `working`
   * (`FOR UPDATE SKIP LOCKED`, then `working`), or null. Race-free across processes: a unique
   * index allows one `working` message per agent, and only an agent's oldest queued message is
   * claimable, so answers of one agent never overlap and keep their order. A concurrent claim of
   * the same agent gets null.
   */
  claimNext(userId: UserId, claim: MailboxClaim): Promise<ClaimedMessage | null>;
  /**
   * `claimNext`, and in the same statement what the answer needs: the agent, its history
   * (`historyLimit` messages, as `history` reads them), its installed skills and its memory. One
   * round trip where the claim and the four reads after it took two. The reads see the database as
   * the claim's snapshot does (the claimed message is excluded from the history either way).
   */
  claimNextWithContext(userId: UserId, claim: MailboxClaim, historyLimit: number): Promise<ClaimedWithContext | null>;
  /** Closes a message `working` under this claim as failed; false when it was not. (An answer closes it through `answer`.) */
  fail(claimed: Pick<ClaimedMessage, 'messageId' | 'claimId' | 'agentId'>, failure: { errorCode: string; error: string }): Promise<boolean>;
  /**
   * Closes a `working` message as answered in one statement (atomic alone, no transaction needed):
   * stores `reply` (an assistant message of the claimed message's agent, user and session), points
   * the mailbox row at it, and appends the `message_answered` event. Null, and nothing written, when
   * the message was not `working` under this claim any more.
   */
  answer(claimed: Pick<ClaimedMessage, 'messageId' | 'claimId' | 'agentId' | 'userId' | 'sessionId'>, reply: { content: string; channel: string; model: string }, event: { durationMs: number; at: Date }): Promise<AgentMessage | null>;
  /**
   * Puts the message `working` under claim `claimId` back in the queue (its runtime went away
   * under it, or its outcome could not be stored) while it has had fewer than `maxAttempts`
   * claims, else fails it with `errorCode`. Null when no message is working under that claim.
   */
  retryLater(claimId: string, maxAttempts: number, errorCode: string, error: string): Promise<'queued' | 'failed' | null>;
  /**
   * Waits until the message is on disk: a write of its mailbox row (changing nothing), committed
   * synchronously, which flushes every commit before it, so a message stored without waiting for
   * the disk (HotWrites.sendToRunningAgent with `awaitDisk: false`) is durable once this resolves.
   */
  makeDurable(messageId: string): Promise<void>;
  /**
   * The user's messages `working` under another worker's claim, queued again (failed with
   * `errorCode` after `maxAttempts` claims): called by the worker that holds the user's instance,
   * so that other worker is gone or has lost the lease (its late answer writes nothing).
   */
  requeueClaimsOfOthers(userId: UserId, workerId: string, maxAttempts: number, errorCode: string): Promise<{ requeued: number; failed: number }>;
  /**
   * Working messages of the user claimed before `before` and not in `exceptAgents` (their worker
   * died): queued again while they have had fewer than `maxAttempts` claims, else failed with
   * `errorCode`. Returns how many were queued again and failed.
   */
  recoverStale(userId: UserId, before: Date, exceptAgents: readonly string[], maxAttempts: number, errorCode: string): Promise<{ requeued: number; failed: number }>;
}

/** What the mailbox announces across processes (PostgreSQL NOTIFY). */
export type MailboxSignal =
  | { kind: 'queued'; userId: UserId; agentId: string }
  | { kind: 'finished'; messageId: string; agentId: string; userId: UserId }
  /** A message of the agent was stored (any role, any channel). */
  | { kind: 'stored'; messageId: string; agentId: string; userId: UserId }
  /** The agent's status moved (a lifecycle call, provisioning, a crash). */
  | { kind: 'status'; agentId: string; userId: UserId; status: string }
  /** A live view of the agent is open somewhere (MailboxSignals.watching). */
  | { kind: 'watching'; agentId: string; userId: UserId }
  /** A piece of the answer being made to message `messageId` (published by the worker answering it). */
  | { kind: 'delta'; agentId: string; userId: UserId; messageId: string; content: string };

/** Waits for one message's answer. */
export interface MessageWatch {
  /**
   * Resolves when the message was announced finished (also if that happened before the call), after
   * `ms`, or when `signal` aborts. The signal is listened to for this wait only (racing each wait
   * against one promise that lives as long as the process kept every wait's reaction: decision 0474).
   */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** The stored reply, when this process's worker answered the message (MailboxSignals.answeredHere); else null. */
  reply(): AgentMessage | null;
  close(): void;
}

/**
 * Mailbox announcements from every process. Delivery is best effort (a listener that lost its
 * connection misses what was sent meanwhile): users of it also look at the database now and
 * then, so a lost announcement only delays.
 */
export interface MailboxSignals {
  /** Starts listening (idempotent). */
  start(): Promise<void>;
  /** Every announcement, in the order received. Returns the unsubscribe. */
  subscribe(listener: (signal: MailboxSignal) => void): () => void;
  /**
   * Announces a piece of an answer in progress to every process (best effort: a lost delta only
   * thins the live view; the stored reply is whole). Resolves once sent; calls made one after
   * another arrive in that order.
   */
  publishDelta(delta: { agentId: string; userId: UserId; messageId: string; content: string }): Promise<void>;
  /** Watches one message: register before reading its state, so a finish in between is not missed. */
  watch(messageId: string): MessageWatch;
  /**
   * This process's worker committed `reply` as the answer to `messageId`: a watch of it in this
   * process wakes with the reply in hand, so the waiting request need not read it back. Other
   * processes learn it from the `finished` announcement as usual.
   */
  answeredHere(messageId: string, reply: AgentMessage): void;
  /**
   * This process's worker claimed `messageId` and is answering it. Until the returned release is
   * called, a `finished` announcement of it does not wake its watches here: the store's own
   * answeredHere wakes them with the reply in hand (the NOTIFY, on another connection, may arrive
   * before the store's result, and would send the waiting request to read the reply back). The
   * release wakes them if a `finished` was held meanwhile without an answeredHere (a failure's record).
   * Call it once the outcome is stored or the answer abandoned, whichever way the answer ends.
   */
  answering(messageId: string): () => void;
  /**
   * This process committed a message to `agentId`'s mailbox: the `queued` announcement reaches this
   * process's listeners at once, without waiting for the NOTIFY to come back; the NOTIFY that then
   * arrives for it is not announced a second time here. Other processes hear the NOTIFY as usual.
   */
  queuedHere(userId: UserId, agentId: string): void;
  /**
   * A live view of the agent (a websocket) is open in this process: known here at once and, by
   * NOTIFY, in every process within a round trip. Called when the view opens and then at least
   * every WATCH_RENEW_MS while it stays open.
   */
  watching(userId: UserId, agentId: string): Promise<void>;
  /** Whether a live view of the agent was announced, by any process, within the last WATCH_TTL_MS: only then are its answers streamed piece by piece. */
  isWatched(agentId: string): boolean;
  stop(): Promise<void>;
}
export const MAILBOX_SIGNALS: InjectionToken<MailboxSignals> = Symbol('MailboxSignals');
/** How often an open live view announces itself again, and how long an announcement counts. */
export const WATCH_RENEW_MS = 20_000;
export const WATCH_TTL_MS = 60_000;
