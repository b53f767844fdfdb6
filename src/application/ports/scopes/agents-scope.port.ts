import type { SystemMailbox, UserMailbox } from '../agent-mailbox.port.js';
import type { AgentMemoryRepository, SystemAgentMemoryRepository } from '../agent-memory-repository.port.js';
import type { AgentCredentialRepository } from '../agent-credential-repository.port.js';
import type { AgentMessageRepository, SystemAgentMessageRepository } from '../agent-message-repository.port.js';
import type { AgentEventLog, AgentEventReader, AgentRepository, SystemAgentRepository } from '../agent-repository.port.js';
import type { AgentScheduleRepository, DueAgentSchedules } from '../agent-schedule-repository.port.js';
import type { AgentSessionRepository } from '../agent-session-repository.port.js';
import type { AgentVerificationRepository } from '../agent-verification-repository.port.js';
import type { ChannelProvisioningRepository } from '../channel-provisioning-repository.port.js';
import type { HeartbeatRepository, HeartbeatSchedule } from '../heartbeat-repository.port.js';
import type { InstanceRepository, SystemInstanceRepository } from '../instance-repository.port.js';
import type { SubscriptionRepository } from '../subscription-repository.port.js';
import type { SkillInstallRepository } from '../skill-install-repository.port.js';
import type { SharedSystemScope, SharedUserScope } from './shared-scope.port.js';

/** What the agents use cases (agents, instances, heartbeat, memory, verification) may touch as one user. */
export interface AgentsUserScope extends SharedUserScope {
  agents: AgentRepository;
  instances: InstanceRepository;
  agentMessages: AgentMessageRepository;
  channelProvisionings: ChannelProvisioningRepository;
  agentEvents: AgentEventReader;
  agentMailbox: UserMailbox;
  agentSessions: AgentSessionRepository;
  agentCredentials: AgentCredentialRepository;
  agentMemory: AgentMemoryRepository;
  heartbeats: HeartbeatRepository;
  /** The agents' schedules and the ticks they ran (scheduled runs). */
  agentSchedules: AgentScheduleRepository;
  /** Appends the user's own agents' events (a skipped heartbeat). */
  agentEventLog: AgentEventLog;
  agentVerifications: AgentVerificationRepository;
  // Of other areas: provisioning reads the user's plan, an agent's skill list its installs.
  subscriptions: SubscriptionRepository;
  skillInstalls: SkillInstallRepository;
}

/** What they may touch as the system: the mailbox worker, the reconcile, the heartbeat schedule. */
export interface AgentsSystemScope extends SharedSystemScope {
  agents: SystemAgentRepository;
  instances: SystemInstanceRepository;
  agentEvents: AgentEventLog;
  agentMessages: SystemAgentMessageRepository;
  agentMailbox: SystemMailbox;
  agentMemory: SystemAgentMemoryRepository;
  heartbeatSchedule: HeartbeatSchedule;
  /** Which agents' schedules are due (the worker's pass). */
  dueAgentSchedules: DueAgentSchedules;
}
