import type { Kysely } from 'kysely';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { JobSender } from '../../../../application/ports/job-queue.port.js';
import type { SystemScope, UserScope } from '../../../../application/ports/unit-of-work.port.js';
import type { Database } from './database.js';
import { KyselySystemMailbox, KyselyUserMailbox } from './kysely-agent-mailbox.js';
import { KyselyAgentMemoryRepository, KyselySystemAgentMemoryRepository } from './kysely-agent-memory-repository.js';
import { KyselyHeartbeatRepository, KyselyHeartbeatSchedule } from './kysely-heartbeat-repository.js';
import { KyselyAgentCredentialRepository } from './kysely-agent-credential-repository.js';
import { KyselyAgentSessionRepository } from './kysely-agent-session-repository.js';
import { KyselyAgentVerificationRepository } from './kysely-agent-verification-repository.js';
import { KyselyAgentMessageRepository, KyselySystemAgentMessageRepository } from './kysely-agent-message-repository.js';
import { KyselyAgentEventLog, KyselyAgentEventReader, KyselyAgentRepository, KyselySystemAgentRepository } from './kysely-agent-repository.js';
import { KyselyApiKeyRepository } from './kysely-api-key-repository.js';
import { KyselyInstanceRepository, KyselySystemInstanceRepository } from './kysely-instance-repository.js';
import { KyselyByokKeyRepository } from './kysely-byok-key-repository.js';
import { KyselyChannelProvisioningRepository } from './kysely-channel-provisioning-repository.js';
import { KyselyOneCallGrantRepository, KyselySystemOneCallGrantRepository } from './kysely-one-call-grant-repository.js';
import { KyselyMppLedger } from './kysely-mpp-ledger.js';
import { KyselyAuthorizationLedger } from './kysely-authorization-ledger.js';
import { KyselyMailOutbox, KyselyOutbox } from './kysely-outbox.js';
import { KyselyPaymentCustomerRepository, KyselySystemPaymentCustomerRepository } from './kysely-payment-customer-repository.js';
import { KyselyPaymentLedger } from './kysely-payment-ledger.js';
import { KyselySkillInstallRepository, KyselySkillInstallStats, KyselySystemSkillInstalls } from './kysely-skill-install-repository.js';
import { KyselyEscrowRepository } from './kysely-escrow-repository.js';
import { KyselyGuestlistRepository } from './kysely-guestlist-repository.js';
import { KyselyRoyaltyRepository } from './kysely-royalty-repository.js';
import { KyselyScheduledEventRepository } from './kysely-scheduled-event-repository.js';
import { KyselySplitRepository } from './kysely-split-repository.js';
import { KyselyTicketingRepository } from './kysely-ticketing-repository.js';
import { KyselyTrackRepository } from './kysely-track-repository.js';
import { KyselyCalendarRepository } from './kysely-calendar-repository.js';
import { KyselyDemoRepository } from './kysely-demo-repository.js';
import { KyselyFanRepository } from './kysely-fan-repository.js';
import { KyselyNoteRepository } from './kysely-note-repository.js';
import { KyselySessionRepository } from './kysely-session-repository.js';
import { KyselySocialSessionRepository } from './kysely-social-session-repository.js';
import { KyselySubscriptionRepository, KyselySystemSubscriptionRepository } from './kysely-subscription-repository.js';
import { KyselyEmailVerifications, KyselyPasswordResets } from './kysely-single-use-tokens.js';
import { KyselyOAuthFlowRepository, KyselyOAuthIdentityRepository } from './kysely-oauth-repositories.js';
import { KyselySystemUserRepository } from './kysely-system-user-repository.js';
import { KyselyUnmatchedPaymentRepository } from './kysely-unmatched-payment-repository.js';
import { KyselyUserRepository } from './kysely-user-repository.js';
import { KyselyWalletIdentities, KyselyWalletNonces } from './kysely-wallet-sign-in.js';
import { KyselyWalletRepository } from './kysely-wallet-repository.js';
import { KyselyPayoutRepository, KyselyUnfinishedPayouts } from './kysely-payout-repository.js';
import { KyselySystemMetricsStore, KyselyUserMetricsReader } from './kysely-metrics-store.js';
import { KyselyOutboxReader, KyselyRetention, KyselyWebhookDeliveries, KyselyWebhookEndpoints } from './kysely-webhooks.js';

/**
 * The repositories of one transaction. Getters build each repository on first use only, so a
 * unit of work that reads one table allocates one object. Later areas add their repositories here.
 */
export function createUserScope(db: Kysely<Database>, userId: UserId, jobs: JobSender): UserScope {
  return {
    userId,
    jobs,
    get users() { return new KyselyUserRepository(db, userId); },
    get sessions() { return new KyselySessionRepository(db); },
    get apiKeys() { return new KyselyApiKeyRepository(db, userId); },
    get outbox() { return new KyselyOutbox(db, jobs); },
    get subscriptions() { return new KyselySubscriptionRepository(db); },
    get paymentCustomers() { return new KyselyPaymentCustomerRepository(db); },
    get byokKeys() { return new KyselyByokKeyRepository(db, userId); },
    get agents() { return new KyselyAgentRepository(db, userId); },
    get instances() { return new KyselyInstanceRepository(db); },
    get agentMessages() { return new KyselyAgentMessageRepository(db); },
    get channelProvisionings() { return new KyselyChannelProvisioningRepository(db, userId); },
    get agentEvents() { return new KyselyAgentEventReader(db); },
    get agentMailbox() { return new KyselyUserMailbox(db, userId); },
    get agentSessions() { return new KyselyAgentSessionRepository(db); },
    get agentCredentials() { return new KyselyAgentCredentialRepository(db); },
    get skillInstalls() { return new KyselySkillInstallRepository(db, userId); },
    get agentMemory() { return new KyselyAgentMemoryRepository(db); },
    get heartbeats() { return new KyselyHeartbeatRepository(db, userId); },
    get agentEventLog() { return new KyselyAgentEventLog(db); },
    get agentVerifications() { return new KyselyAgentVerificationRepository(db); },
    get scheduledEvents() { return new KyselyScheduledEventRepository(db); },
    get escrows() { return new KyselyEscrowRepository(db); },
    get splits() { return new KyselySplitRepository(db); },
    get guestlists() { return new KyselyGuestlistRepository(db); },
    get ticketing() { return new KyselyTicketingRepository(db); },
    get royalties() { return new KyselyRoyaltyRepository(db); },
    get tracks() { return new KyselyTrackRepository(db); },
    get fans() { return new KyselyFanRepository(db); },
    get demos() { return new KyselyDemoRepository(db); },
    get calendar() { return new KyselyCalendarRepository(db); },
    get notes() { return new KyselyNoteRepository(db); },
    get oneCallGrants() { return new KyselyOneCallGrantRepository(db, userId); },
    get wallets() { return new KyselyWalletRepository(db); },
    get payouts() { return new KyselyPayoutRepository(db); },
    get metrics() { return new KyselyUserMetricsReader(db); },
  };
}

export function createSystemScope(db: Kysely<Database>, jobs: JobSender): SystemScope {
  return {
    jobs,
    get users() { return new KyselySystemUserRepository(db); },
    get sessions() { return new KyselySessionRepository(db); },
    get emailVerifications() { return new KyselyEmailVerifications(db); },
    get passwordResets() { return new KyselyPasswordResets(db); },
    get outbox() { return new KyselyOutbox(db, jobs); },
    get subscriptions() { return new KyselySystemSubscriptionRepository(db); },
    get paymentCustomers() { return new KyselySystemPaymentCustomerRepository(db); },
    get paymentLedger() { return new KyselyPaymentLedger(db); },
    get unmatchedPayments() { return new KyselyUnmatchedPaymentRepository(db); },
    get agents() { return new KyselySystemAgentRepository(db); },
    get instances() { return new KyselySystemInstanceRepository(db); },
    get agentEvents() { return new KyselyAgentEventLog(db); },
    get agentMessages() { return new KyselySystemAgentMessageRepository(db); },
    get agentMailbox() { return new KyselySystemMailbox(db); },
    get skillInstallStats() { return new KyselySkillInstallStats(db); },
    get agentSkills() { return new KyselySystemSkillInstalls(db); },
    get agentMemory() { return new KyselySystemAgentMemoryRepository(db); },
    get heartbeatSchedule() { return new KyselyHeartbeatSchedule(db); },
    get oneCallGrants() { return new KyselySystemOneCallGrantRepository(db); },
    get walletNonces() { return new KyselyWalletNonces(db); },
    get walletIdentities() { return new KyselyWalletIdentities(db); },
    get socialSessions() { return new KyselySocialSessionRepository(db); },
    get oauthFlows() { return new KyselyOAuthFlowRepository(db); },
    get oauthIdentities() { return new KyselyOAuthIdentityRepository(db); },
    get mppLedger() { return new KyselyMppLedger(db); },
    get authorizationLedger() { return new KyselyAuthorizationLedger(db); },
    get unfinishedPayouts() { return new KyselyUnfinishedPayouts(db); },
    get metrics() { return new KyselySystemMetricsStore(db); },
    get mailOutbox() { return new KyselyMailOutbox(db); },
    get webhookEndpoints() { return new KyselyWebhookEndpoints(db); },
    get webhookDeliveries() { return new KyselyWebhookDeliveries(db); },
    get outboxReader() { return new KyselyOutboxReader(db); },
    get retention() { return new KyselyRetention(db); },
  };
}
