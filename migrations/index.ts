import type { Migration, MigrationProvider } from 'kysely';
import * as roles from './2026_11_22_0001_roles.js';
import * as accounts from './2026_11_22_0002_accounts.js';
import * as billing from './2026_11_22_0003_billing.js';
import * as unmatchedPaymentEvents from './2026_11_24_0004_unmatched_payment_events.js';
import * as userColumnGrants from './2026_11_24_0005_user_column_grants.js';
import * as usageReservations from './2026_11_24_0006_usage_reservations.js';
import * as hotReadFunctions from './2026_11_24_0007_hot_read_functions.js';
import * as agents from './2026_11_24_0008_agents.js';
import * as instanceLeases from './2026_11_24_0009_instance_leases.js';
import * as agentMailbox from './2026_11_24_0010_agent_mailbox.js';
import * as channelProvisioning from './2026_11_24_0011_channel_provisioning.js';
import * as agentSessions from './2026_11_24_0012_agent_sessions.js';
import * as skillInstalls from './2026_11_24_0013_skill_installs.js';
import * as agentMemory from './2026_11_24_0014_agent_memory.js';
import * as heartbeats from './2026_11_24_0015_heartbeats.js';
import * as agentVerifications from './2026_11_24_0016_agent_verifications.js';
import * as skills from './2026_11_24_0017_skills.js';
import * as skillState from './2026_11_24_0018_skill_state.js';
import * as agentMailboxReplyIndex from './2026_11_24_0020_agent_mailbox_reply_index.js';
import * as gatewayPayments from './2026_11_24_0021_gateway_payments.js';
import * as oneCallGrants from './2026_11_24_0022_one_call_grants.js';
import * as oauth from './2026_11_24_0023_oauth.js';
import * as walletSignIn from './2026_11_24_0024_wallet_sign_in.js';
import * as socialSessions from './2026_11_24_0025_social_sessions.js';
import * as wallets from './2026_11_24_0026_wallets.js';
import * as metrics from './2026_11_24_0028_metrics.js';
import * as webhooksAndMail from './2026_11_24_0029_webhooks_and_mail.js';
import * as systemReadsSkillInstalls from './2026_11_25_0030_system_reads_skill_installs.js';
import * as replyQuestionTime from './2026_11_25_0031_reply_question_time.js';
import * as hotSendMessage from './2026_11_25_0032_hot_send_message.js';
import * as systemReadsByokProviders from './2026_11_25_0033_system_reads_byok_providers.js';
import * as reservationLeases from './2026_11_27_0045_reservation_leases.js';
import * as creditUnits from './2026_11_27_0046_credit_units.js';
import * as walletPayouts from './2026_11_27_0050_wallet_payouts.js';
import * as instanceWithFirstAgent from './2026_11_27_0060_instance_with_first_agent.js';
import * as mailboxClaims from './2026_11_27_0070_mailbox_claims.js';
import * as agentRemoval from './2026_11_27_0080_agent_removal.js';
import * as agentMessageModel from './2026_11_27_0085_agent_message_model.js';
import * as agentActivityEvents from './2026_11_27_0090_agent_activity_events.js';
import * as sendAndClaim from './2026_11_27_0101_send_and_claim.js';
import * as sendAndClaimByPartialIndexes from './2026_11_27_0102_send_and_claim_by_partial_indexes.js';
import * as payoutClaims from './2026_11_28_0414_payout_claims.js';
import * as payoutsParked from './2026_11_28_0415_payouts_parked.js';
import * as payoutNoncesOnce from './2026_11_28_0416_payout_nonces_once.js';
import * as payoutExecutionOwner from './2026_11_28_0417_payout_execution_owner.js';
import * as apiKeyLimits from './2026_11_28_0425_api_key_limits.js';
import * as mppAuthorizations from './2026_11_29_0430_mpp_authorizations.js';
import * as agentSchedules from './2026_11_29_0445_agent_schedules.js';
import * as agentMcpServers from './2026_11_29_0440_agent_mcp_servers.js';
import * as historyReadsByPage from './2026_11_29_0465_history_reads_by_page.js';
import * as deliveredRowsRetention from './2026_11_29_0466_delivered_rows_retention.js';
import * as agentMessageCounts from './2026_11_29_0468_agent_message_counts.js';
import * as pruningDeletesOnlyWhatRetentionNames from './2026_11_29_0469_pruning_deletes_only_what_retention_names.js';
import * as sweepIndexByClosedAt from './2026_11_29_0475_sweep_index_by_closed_at.js';
import * as dropHotReadFunctions from './2026_11_27_0098_drop_hot_read_functions.js';

/**
 * Migrations listed statically (not read from the folder at run time), so the same list works
 * from TypeScript sources under tsx and vitest and from the compiled build. Names sort in order.
 */
const migrations: Record<string, Migration> = {
  '2026_11_22_0001_roles': roles,
  '2026_11_22_0002_accounts': accounts,
  '2026_11_22_0003_billing': billing,
  '2026_11_24_0004_unmatched_payment_events': unmatchedPaymentEvents,
  '2026_11_24_0005_user_column_grants': userColumnGrants,
  '2026_11_24_0006_usage_reservations': usageReservations,
  '2026_11_24_0007_hot_read_functions': hotReadFunctions,
  '2026_11_24_0008_agents': agents,
  '2026_11_24_0009_instance_leases': instanceLeases,
  '2026_11_24_0010_agent_mailbox': agentMailbox,
  '2026_11_24_0011_channel_provisioning': channelProvisioning,
  '2026_11_24_0012_agent_sessions': agentSessions,
  '2026_11_24_0013_skill_installs': skillInstalls,
  '2026_11_24_0014_agent_memory': agentMemory,
  '2026_11_24_0015_heartbeats': heartbeats,
  '2026_11_24_0016_agent_verifications': agentVerifications,
  '2026_11_24_0017_skills': skills,
  '2026_11_24_0018_skill_state': skillState,
  '2026_11_24_0020_agent_mailbox_reply_index': agentMailboxReplyIndex,
  '2026_11_24_0021_gateway_payments': gatewayPayments,
  '2026_11_24_0022_one_call_grants': oneCallGrants,
  '2026_11_24_0023_oauth': oauth,
  '2026_11_24_0024_wallet_sign_in': walletSignIn,
  '2026_11_24_0025_social_sessions': socialSessions,
  '2026_11_24_0026_wallets': wallets,
  '2026_11_24_0028_metrics': metrics,
  '2026_11_24_0029_webhooks_and_mail': webhooksAndMail,
  '2026_11_25_0030_system_reads_skill_installs': systemReadsSkillInstalls,
  '2026_11_25_0031_reply_question_time': replyQuestionTime,
  '2026_11_25_0032_hot_send_message': hotSendMessage,
  '2026_11_25_0033_system_reads_byok_providers': systemReadsByokProviders,
  '2026_11_27_0045_reservation_leases': reservationLeases,
  '2026_11_27_0046_credit_units': creditUnits,
  '2026_11_27_0050_wallet_payouts': walletPayouts,
  '2026_11_27_0060_instance_with_first_agent': instanceWithFirstAgent,
  '2026_11_27_0070_mailbox_claims': mailboxClaims,
  '2026_11_27_0080_agent_removal': agentRemoval,
  '2026_11_27_0085_agent_message_model': agentMessageModel,
  '2026_11_27_0090_agent_activity_events': agentActivityEvents,
  '2026_11_27_0098_drop_hot_read_functions': dropHotReadFunctions,
  '2026_11_27_0101_send_and_claim': sendAndClaim,
  '2026_11_27_0102_send_and_claim_by_partial_indexes': sendAndClaimByPartialIndexes,
  '2026_11_28_0414_payout_claims': payoutClaims,
  '2026_11_28_0415_payouts_parked': payoutsParked,
  '2026_11_28_0416_payout_nonces_once': payoutNoncesOnce,
  '2026_11_28_0417_payout_execution_owner': payoutExecutionOwner,
  '2026_11_28_0425_api_key_limits': apiKeyLimits,
  '2026_11_29_0430_mpp_authorizations': mppAuthorizations,
  '2026_11_29_0440_agent_mcp_servers': agentMcpServers,
  '2026_11_29_0445_agent_schedules': agentSchedules,
  '2026_11_29_0465_history_reads_by_page': historyReadsByPage,
  '2026_11_29_0466_delivered_rows_retention': deliveredRowsRetention,
  '2026_11_29_0468_agent_message_counts': agentMessageCounts,
  '2026_11_29_0469_pruning_deletes_only_what_retention_names': pruningDeletesOnlyWhatRetentionNames,
  '2026_11_29_0475_sweep_index_by_closed_at': sweepIndexByClosedAt,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
