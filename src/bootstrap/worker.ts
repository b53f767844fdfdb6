import type { DependencyContainer } from 'tsyringe';
import {
  RELEASE_STALE_RESERVATIONS,
  RELEASE_STALE_RESERVATIONS_CRON,
  releaseStaleReservationsHandler,
} from '../adapters/inbound/jobs/release-stale-reservations.handler.js';
import { SEND_DUE_HEARTBEATS, SEND_DUE_HEARTBEATS_CRON, sendDueHeartbeatsHandler } from '../adapters/inbound/jobs/send-due-heartbeats.handler.js';
import { SendDueHeartbeats } from '../application/heartbeat/send-due-heartbeats.use-case.js';
import { RUN_DUE_SCHEDULES, RUN_DUE_SCHEDULES_CRON, runDueSchedulesHandler } from '../adapters/inbound/jobs/run-due-schedules.handler.js';
import { RunDueSchedules } from '../application/schedules/run-due-schedules.use-case.js';
import { PURGE_EXPIRED_CHALLENGES, PURGE_EXPIRED_CHALLENGES_CRON, purgeExpiredChallengesHandler } from '../adapters/inbound/jobs/purge-expired-challenges.handler.js';
import { PurgeExpiredChallenges } from '../application/gateway/purge-expired-challenges.use-case.js';
import { PROVISION_AGENT_JOB, provisionAgentHandler } from '../adapters/inbound/jobs/provision-agent.handler.js';
import type { PgBossQueue } from '../adapters/outbound/queue/pg-boss-queue.js';
import { AgentMailboxDispatcher } from '../adapters/inbound/jobs/agent-mailbox-dispatcher.js';
import { CompleteProvisioning } from '../application/agents/complete-provisioning.use-case.js';
import { startInstanceWork } from './register-instances.js';
import { ReleaseStaleReservations } from '../application/billing/release-stale-reservations.use-case.js';
import { SAMPLE_INSTANCES, SAMPLE_INSTANCES_CRON, sampleInstancesHandler } from '../adapters/inbound/jobs/sample-instances.handler.js';
import { SampleInstances } from '../application/metrics/sample-instances.use-case.js';
import {
  deliverMailHandler,
  deliverWebhookHandler,
  PRUNE_JOBS,
  pruneHandler,
  relayOutboxEventsHandler,
} from '../adapters/inbound/jobs/webhook-and-mail.handlers.js';
import { DeliverOutboxMail } from '../application/mail/deliver-outbox-mail.use-case.js';
import { PruneOldData } from '../application/maintenance/prune-old-data.use-case.js';
import { DeliverWebhook } from '../application/webhooks/deliver-webhook.use-case.js';
import { RelayOutboxEvents } from '../application/webhooks/relay-outbox-events.use-case.js';
import {
  SEND_PAYOUTS_JOB, sendPayoutsHandler, SWEEP_UNFINISHED_PAYOUTS, SWEEP_UNFINISHED_PAYOUTS_CRON, sweepUnfinishedPayoutsHandler,
} from '../adapters/inbound/jobs/send-payouts.handler.js';
import { SweepUnfinishedPayouts } from '../application/wallets/sweep-unfinished-payouts.use-case.js';
import { SendPayouts } from '../application/wallets/send-payouts.use-case.js';
import { DELIVER_MAIL_JOB, DELIVER_WEBHOOK_JOB, RELAY_OUTBOX_EVENTS_CRON, RELAY_OUTBOX_EVENTS_JOB } from '../application/webhooks/webhook-jobs.js';

/**
 * The worker side: registers the job handlers of every area, then starts fetching, then declares
 * the schedules (idempotent: every worker declares them, pg-boss sends each occurrence once).
 * Handlers call the same use cases the HTTP routes call.
 */
export async function startWorker(container: DependencyContainer, queue: PgBossQueue, afterQueueStops: (() => Promise<void>)[]): Promise<void> {
  // On shutdown, once the queue has drained: first no new answers, then leases and runtimes.
  const mailboxes = container.resolve(AgentMailboxDispatcher);
  afterQueueStops.push(() => mailboxes.stop());
  afterQueueStops.push(startInstanceWork(container));
  queue.register(RELEASE_STALE_RESERVATIONS, releaseStaleReservationsHandler(container.resolve(ReleaseStaleReservations)));
  queue.register(SEND_DUE_HEARTBEATS, sendDueHeartbeatsHandler(container.resolve(SendDueHeartbeats)));
  queue.register(RUN_DUE_SCHEDULES, runDueSchedulesHandler(container.resolve(RunDueSchedules)));
  queue.register(PURGE_EXPIRED_CHALLENGES, purgeExpiredChallengesHandler(container.resolve(PurgeExpiredChallenges)));
  queue.register(PROVISION_AGENT_JOB, provisionAgentHandler(container.resolve(CompleteProvisioning)));
  queue.register(SAMPLE_INSTANCES, sampleInstancesHandler(container.resolve(SampleInstances)));
  queue.register(RELAY_OUTBOX_EVENTS_JOB, relayOutboxEventsHandler(container.resolve(RelayOutboxEvents)));
  queue.register(DELIVER_WEBHOOK_JOB, deliverWebhookHandler(container.resolve(DeliverWebhook)));
  queue.register(DELIVER_MAIL_JOB, deliverMailHandler(container.resolve(DeliverOutboxMail)));
  queue.register(SEND_PAYOUTS_JOB, sendPayoutsHandler(container.resolve(SendPayouts)));
  queue.register(SWEEP_UNFINISHED_PAYOUTS, sweepUnfinishedPayoutsHandler(container.resolve(SweepUnfinishedPayouts)));
  const prune = container.resolve(PruneOldData);
  for (const [kind, job] of Object.entries(PRUNE_JOBS)) queue.register(kind, pruneHandler(prune, job.kind));
  await queue.work();
  await queue.schedule(RELEASE_STALE_RESERVATIONS, RELEASE_STALE_RESERVATIONS_CRON);
  await queue.schedule(SEND_DUE_HEARTBEATS, SEND_DUE_HEARTBEATS_CRON);
  await queue.schedule(RUN_DUE_SCHEDULES, RUN_DUE_SCHEDULES_CRON);
  await queue.schedule(PURGE_EXPIRED_CHALLENGES, PURGE_EXPIRED_CHALLENGES_CRON);
  await queue.schedule(SAMPLE_INSTANCES, SAMPLE_INSTANCES_CRON);
  await queue.schedule(SWEEP_UNFINISHED_PAYOUTS, SWEEP_UNFINISHED_PAYOUTS_CRON);
  // the safety net behind the relay job each event sends (and events written before it existed)
  await queue.schedule(RELAY_OUTBOX_EVENTS_JOB, RELAY_OUTBOX_EVENTS_CRON);
  for (const [kind, job] of Object.entries(PRUNE_JOBS)) await queue.schedule(kind, job.cron);
  // the agents' mailboxes of the runtimes this worker runs
  await mailboxes.start();
}
