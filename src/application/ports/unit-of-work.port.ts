import type { InjectionToken } from 'tsyringe';
import type { User } from '../../domain/accounts/user.js';
import type { ChatSubscription } from '../../domain/ai/chat-access.js';
import type { SubscriptionSummary } from '../../domain/billing/profile-plan.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { ClaimedWithContext, UserMailbox, SystemMailbox } from './agent-mailbox.port.js';
import type { AgentMemoryRepository, SystemAgentMemoryRepository } from './agent-memory-repository.port.js';
import type { HeartbeatRepository, HeartbeatSchedule } from './heartbeat-repository.port.js';
import type { AgentCredentialRepository } from './agent-credential-repository.port.js';
import type { AgentSessionRepository } from './agent-session-repository.port.js';
import type { AgentVerificationRepository } from './agent-verification-repository.port.js';
import type { AgentMessage, AgentMessageRepository, SystemAgentMessageRepository } from './agent-message-repository.port.js';
import type { AgentEventLog, AgentEventReader, AgentRepository, SystemAgentRepository } from './agent-repository.port.js';
import type { ApiKeyRepository } from './api-key-repository.port.js';
import type { InstanceRepository, SystemInstanceRepository } from './instance-repository.port.js';
import type { ByokKeyRepository } from './byok-key-repository.port.js';
import type { ChannelProvisioningRepository } from './channel-provisioning-repository.port.js';
import type { JobSender } from './job-queue.port.js';
import type { OneCallGrantRepository, SystemOneCallGrantRepository } from './one-call-grant-repository.port.js';
import type { OAuthFlowRepository, OAuthIdentityRepository } from './oauth-repositories.port.js';
import type { MppLedger } from './mpp-ledger.port.js';
import type { MailOutbox, Outbox } from './outbox.port.js';
import type { PaymentCustomerRepository, SystemPaymentCustomerRepository } from './payment-customer-repository.port.js';
import type { PaymentLedger } from './payment-ledger.port.js';
import type { SessionRepository } from './session-repository.port.js';
import type { SingleUseTokenRepository } from './single-use-token-repository.port.js';
import type { SocialSessionRepository } from './social-session-repository.port.js';
import type { SkillInstallRepository, SkillInstallStats, SystemSkillInstalls } from './skill-install-repository.port.js';
import type { ScheduledEventRepository } from './scheduled-event-repository.port.js';
import type { EscrowRepository } from './escrow-repository.port.js';
import type { SplitRepository } from './split-repository.port.js';
import type { GuestlistRepository } from './guestlist-repository.port.js';
import type { TicketingRepository } from './ticketing-repository.port.js';
import type { RoyaltyRepository } from './royalty-repository.port.js';
import type { TrackRepository } from './track-repository.port.js';
import type { FanRepository } from './fan-repository.port.js';
import type { DemoRepository } from './demo-repository.port.js';
import type { CalendarRepository } from './calendar-repository.port.js';
import type { NoteRepository } from './note-repository.port.js';
import type { SubscriptionRepository, SystemSubscriptionRepository } from './subscription-repository.port.js';
import type { UnmatchedPaymentRepository } from './unmatched-payment-repository.port.js';
import type { SystemUserRepository, UserRepository } from './user-repository.port.js';
import type { WalletIdentityRepository, WalletNonceRepository } from './wallet-sign-in-repositories.port.js';
import type { WalletRepository } from './wallet-repository.port.js';
import type { PayoutRepository, UnfinishedPayouts } from './payout-repository.port.js';
import type { SystemMetricsStore, UserMetricsReader } from './metrics-store.port.js';
import type { OutboxReader } from './outbox-reader.port.js';
import type { RetentionRepository } from './retention-repository.port.js';
import type { WebhookDeliveryRepository, WebhookEndpointRepository } from './webhook-repositories.port.js';

/** What a use case may touch while acting as one user; rows are that user's only. */
export interface UserScope {
  userId: UserId;
  users: UserRepository;
  sessions: SessionRepository;
  apiKeys: ApiKeyRepository;
  outbox: Outbox;
  jobs: JobSender;
  subscriptions: SubscriptionRepository;
  paymentCustomers: PaymentCustomerRepository;
  byokKeys: ByokKeyRepository;
  agents: AgentRepository;
  instances: InstanceRepository;
  agentMessages: AgentMessageRepository;
  channelProvisionings: ChannelProvisioningRepository;
  agentEvents: AgentEventReader;
  agentMailbox: UserMailbox;
  agentSessions: AgentSessionRepository;
  agentCredentials: AgentCredentialRepository;
  skillInstalls: SkillInstallRepository;
  agentMemory: AgentMemoryRepository;
  heartbeats: HeartbeatRepository;
  /** Appends the user's own agents' events (a skipped heartbeat). */
  agentEventLog: AgentEventLog;
  agentVerifications: AgentVerificationRepository;
  scheduledEvents: ScheduledEventRepository;
  escrows: EscrowRepository;
  splits: SplitRepository;
  guestlists: GuestlistRepository;
  ticketing: TicketingRepository;
  royalties: RoyaltyRepository;
  tracks: TrackRepository;
  fans: FanRepository;
  demos: DemoRepository;
  calendar: CalendarRepository;
  notes: NoteRepository;
  oneCallGrants: OneCallGrantRepository;
  wallets: WalletRepository;
  /** On-chain transfers as an outbox (instant-split payouts, usdc-payments sends). */
  payouts: PayoutRepository;
  metrics: UserMetricsReader;
}

/** What the system unit of work may touch: exactly the tables its database role is granted. */
export interface SystemScope {
  users: SystemUserRepository;
  sessions: SessionRepository;
  emailVerifications: SingleUseTokenRepository<{ email: string }>;
  passwordResets: SingleUseTokenRepository;
  outbox: Outbox;
  jobs: JobSender;
  subscriptions: SystemSubscriptionRepository;
  paymentCustomers: SystemPaymentCustomerRepository;
  paymentLedger: PaymentLedger;
  unmatchedPayments: UnmatchedPaymentRepository;
  agents: SystemAgentRepository;
  instances: SystemInstanceRepository;
  agentEvents: AgentEventLog;
  agentMessages: SystemAgentMessageRepository;
  agentMailbox: SystemMailbox;
  skillInstallStats: SkillInstallStats;
  /** Installs read by the mailbox worker, to offer an agent its tools. */
  agentSkills: SystemSkillInstalls;
  agentMemory: SystemAgentMemoryRepository;
  heartbeatSchedule: HeartbeatSchedule;
  oneCallGrants: SystemOneCallGrantRepository;
  walletNonces: WalletNonceRepository;
  walletIdentities: WalletIdentityRepository;
  socialSessions: SocialSessionRepository;
  oauthFlows: OAuthFlowRepository;
  oauthIdentities: OAuthIdentityRepository;
  /** The gateway's MPP challenges and the payments that consumed them. */
  mppLedger: MppLedger;
  /** Payouts left unfinished (their job's retries spent): the sweep sends them as their owner. */
  unfinishedPayouts: UnfinishedPayouts;
  metrics: SystemMetricsStore;
  mailOutbox: MailOutbox;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  outboxReader: OutboxReader;
  retention: RetentionRepository;
}

/**
 * Runs a use case's work in one database transaction. Everything in `work` commits together or
 * not at all; `work` must not call vendors (no network calls but the database inside).
 */
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
 * The slice of a user's unit of work a use case declares it uses (Infisical's `Pick<>` habit):
 * injected with UNIT_OF_WORK, it can reach only the repositories it names, so its constructor
 * says what it touches and a test fake needs only those.
 */
export interface UserWork<K extends keyof UserScope> {
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

/** The same for the system unit of work. */
export interface SystemWork<K extends keyof SystemScope> {
  asSystem<T>(work: (scope: Pick<SystemScope, K>) => Promise<T>): Promise<T>;
}

/** The same for system statements outside a transaction. */
export interface SystemStatements<K extends keyof SystemScope> {
  statementsAsSystem<T>(work: (scope: Pick<SystemScope, K>) => Promise<T>): Promise<T>;
}
