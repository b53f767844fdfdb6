import type { InjectionToken } from 'tsyringe';
import type { User } from '../../domain/accounts/user.js';
import type { ChatSubscription } from '../../domain/ai/chat-access.js';
import type { SubscriptionSummary } from '../../domain/billing/profile-plan.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { ClaimedWithContext } from './agent-mailbox.port.js';
import type { AgentMessage } from './agent-message-repository.port.js';
import type { AccountsSystemScope, AccountsUserScope } from './scopes/accounts-scope.port.js';
import type { AgentsSystemScope, AgentsUserScope } from './scopes/agents-scope.port.js';
import type { BillingSystemScope, BillingUserScope } from './scopes/billing-scope.port.js';
import type { DeliverySystemScope } from './scopes/delivery-scope.port.js';
import type { GatewaySystemScope, GatewayUserScope } from './scopes/gateway-scope.port.js';
import type { MaintenanceSystemScope } from './scopes/maintenance-scope.port.js';
import type { McpSystemScope, McpUserScope } from './scopes/mcp-scope.port.js';
import type { MetricsSystemScope, MetricsUserScope } from './scopes/metrics-scope.port.js';
import type { SkillsSystemScope, SkillsUserScope } from './scopes/skills-scope.port.js';
import type { WalletsSystemScope, WalletsUserScope } from './scopes/wallets-scope.port.js';

/**
 * What a use case may touch while acting as one user; rows are that user's only. The whole, which
 * the adapter builds: each area's use cases see their own area's scope (ports/scopes/, decision 0026).
 * A member two areas share has one type in both, or this does not compile.
 */
export interface UserScope
  extends AccountsUserScope,
    AgentsUserScope,
    BillingUserScope,
    GatewayUserScope,
    McpUserScope,
    MetricsUserScope,
    SkillsUserScope,
    WalletsUserScope {}

/** What the system unit of work may touch: exactly the tables its database role is granted; each area sees its own part. */
export interface SystemScope
  extends AccountsSystemScope,
    AgentsSystemScope,
    BillingSystemScope,
    DeliverySystemScope,
    GatewaySystemScope,
    MaintenanceSystemScope,
    McpSystemScope,
    MetricsSystemScope,
    SkillsSystemScope,
    WalletsSystemScope {}

/** Reads hot enough to go as one round trip; each is fixed SQL text keyed by name. */
export interface HotReads {
  /** The acting user's own row without its timestamps, with their subscribed plan subscriptions (the profile's plan comes from them). */
  profile: (ProfileUser & { subscriptions: SubscriptionSummary[] }) | null;
  /** What every `/api/ai/chat` call checks first: the user's subscriptions, and the providers they keep a BYOK key for. */
  chatAccess: ChatAccess;
}

/** A user as the profile shows them: everything but the row's timestamps, which no caller of the profile shows. */
export type ProfileUser = Omit<User, 'createdAt' | 'updatedAt'>;

/** What a `/api/ai/chat` caller may do: their subscriptions, and the providers they keep a BYOK key for. */
export interface ChatAccess {
  subscriptions: (ChatSubscription & { processorId: string })[];
  byokProviders: string[];
}

/** Writes hot enough to go as one round trip: each its arguments and its answer, keyed by name. */
export interface HotWrites {
  /**
   * POST /api/chat's write: the user's message stored and queued in its agent's mailbox, only when
   * `agentId` is one of the user's agents and is `running` and, with `sessionId`, that session is
   * the agent's; null, and nothing written, otherwise (the caller then reads why). With `awaitDisk`
   * false the commit does not wait for the disk: visible at once, durable with the next synchronous
   * commit (the reply's store, a failure's record, SystemMailbox.makeDurable) or within the WAL
   * writer's delay; the caller must not say "stored" before one of those.
   */
  sendToRunningAgent: { args: { agentId: string; content: string; channel: string; sessionId: string | null; awaitDisk: boolean }; result: AgentMessage | null };
  /**
   * The same write, by a process that can answer the message at once (decision 0368): when the
   * agent has nothing queued or working, the mailbox row is stored already `working` under
   * `claimId` and `workerId`, and `claimed` is the claim's context (as SystemMailbox.claimNextWithContext
   * gives it), so no separate claim is made; otherwise `claimed` is null and the message is queued
   * as by sendToRunningAgent. Never waits for the disk (the answer's store flushes both).
   */
  sendAndClaim: {
    args: { agentId: string; content: string; channel: string; sessionId: string | null; claimId: string; workerId: string; historyLimit: number };
    result: { message: AgentMessage; claimed: ClaimedWithContext | null } | null;
  };
}

/**
 * Runs a use case's work in one database transaction. Everything in `work` commits together or
 * not at all; `work` must not call vendors (no network calls but the database inside).
 */
export interface UnitOfWork {
  /** As `app_user`, with the acting user set before the first statement. */
  asUser<T>(userId: UserId, work: (scope: UserScope) => Promise<T>): Promise<T>;
  /**
   * A whole read-only unit of work in one round trip: the acting user is set before the read and
   * only for it, the same isolation as `asUser`, and the connection keeps no identity afterwards.
   * Throws TypeError, before any database work, when `userId` is not a uuid. For the hottest reads only.
   */
  readAsUser<K extends keyof HotReads>(userId: UserId, read: K): Promise<HotReads[K]>;
  /** A whole unit of work that writes, in one round trip, isolated as `readAsUser` is: one statement, atomic alone. */
  writeAsUser<K extends keyof HotWrites>(userId: UserId, write: K, args: HotWrites[K]['args']): Promise<HotWrites[K]['result']>;
  /** The named system unit of work, as `app_system`, for work before the user is known. */
  asSystem<T>(work: (scope: SystemScope) => Promise<T>): Promise<T>;
  /**
   * As `app_system` but with no transaction: each statement runs alone on a connection of its
   * own, atomic by itself, so independent reads started together (Promise.all) run at once and
   * no BEGIN or COMMIT is paid. There is no snapshot across statements: for hot paths whose
   * statements each stand alone (a claim, then reads).
   */
  statementsAsSystem<T>(work: (scope: SystemScope) => Promise<T>): Promise<T>;
}
export const UNIT_OF_WORK: InjectionToken<UnitOfWork> = Symbol('UnitOfWork');

/**
 * The slice of a user's unit of work a use case declares it uses (Infisical's `Pick<>` habit), named
 * from its area's scope: `UserWork<AgentsUserScope, 'agents' | 'instances'>`. Injected with
 * UNIT_OF_WORK, it can reach only the repositories it names, so its constructor says what it touches
 * and a test fake needs only those; a name outside the area's scope does not compile.
 */
export interface UserWork<S, K extends keyof S & keyof UserScope> {
  asUser<T>(userId: UserId, work: (scope: Pick<UserScope, K | 'userId'>) => Promise<T>): Promise<T>;
}

/** The hot reads a use case declares it makes. */
export interface HotRead<K extends keyof HotReads> {
  readAsUser<R extends K>(userId: UserId, read: R): Promise<HotReads[R]>;
}

/** The hot writes a use case declares it makes. */
export interface HotWrite<K extends keyof HotWrites> {
  writeAsUser<R extends K>(userId: UserId, write: R, args: HotWrites[R]['args']): Promise<HotWrites[R]['result']>;
}

/** The same for the system unit of work: `SystemWork<BillingSystemScope, 'paymentLedger'>`. */
export interface SystemWork<S, K extends keyof S & keyof SystemScope> {
  asSystem<T>(work: (scope: Pick<SystemScope, K>) => Promise<T>): Promise<T>;
}

/** The same for system statements outside a transaction. */
export interface SystemStatements<S, K extends keyof S & keyof SystemScope> {
  statementsAsSystem<T>(work: (scope: Pick<SystemScope, K>) => Promise<T>): Promise<T>;
}
