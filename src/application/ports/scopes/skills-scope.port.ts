import type { CalendarRepository } from '../calendar-repository.port.js';
import type { DemoRepository } from '../demo-repository.port.js';
import type { EscrowRepository } from '../escrow-repository.port.js';
import type { FanRepository } from '../fan-repository.port.js';
import type { GuestlistRepository } from '../guestlist-repository.port.js';
import type { NoteRepository } from '../note-repository.port.js';
import type { RoyaltyRepository } from '../royalty-repository.port.js';
import type { ScheduledEventRepository } from '../scheduled-event-repository.port.js';
import type { SkillInstallRepository, SkillInstallStats, SystemSkillInstalls } from '../skill-install-repository.port.js';
import type { SplitRepository } from '../split-repository.port.js';
import type { TicketingRepository } from '../ticketing-repository.port.js';
import type { TrackRepository } from '../track-repository.port.js';
import type { AgentEventLog, AgentRepository, SystemAgentRepository } from '../agent-repository.port.js';
import type { SystemInstanceRepository } from '../instance-repository.port.js';
import type { PayoutRepository } from '../payout-repository.port.js';
import type { SubscriptionRepository } from '../subscription-repository.port.js';
import type { WalletRepository } from '../wallet-repository.port.js';
import type { SharedSystemScope, SharedUserScope } from './shared-scope.port.js';

/** What the skills may touch as one user: their installs and each skill's own state. */
export interface SkillsUserScope extends SharedUserScope {
  skillInstalls: SkillInstallRepository;
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
  // Of other areas: installing reads the agent and the plan; instant-split pays out from the user's wallet.
  agents: AgentRepository;
  subscriptions: SubscriptionRepository;
  wallets: WalletRepository;
  payouts: PayoutRepository;
}

/** What they may touch as the system. */
export interface SkillsSystemScope extends SharedSystemScope {
  skillInstallStats: SkillInstallStats;
  /** Installs read by the mailbox worker, to offer an agent its tools. */
  agentSkills: SystemSkillInstalls;
  // Of other areas: an agent's tool call reads its agent and instance, and logs an event.
  agents: SystemAgentRepository;
  instances: SystemInstanceRepository;
  agentEvents: AgentEventLog;
}
