import { z } from 'zod';
import type { JobHandler } from '../../../application/ports/job-queue.port.js';
import type { DeliverOutboxMail } from '../../../application/mail/deliver-outbox-mail.use-case.js';
import type { DeliverWebhook } from '../../../application/webhooks/deliver-webhook.use-case.js';
import type { RelayOutboxEvents } from '../../../application/webhooks/relay-outbox-events.use-case.js';
import type { PruneKind, PruneOldData } from '../../../application/maintenance/prune-old-data.use-case.js';
import { DomainError } from '../../../domain/shared/domain-error.js';

/** A job whose data this version cannot read: final, retrying cannot fix it. */
class JobDataInvalidError extends DomainError {
  constructor(kind: string) {
    super('JOB_DATA_INVALID', `The ${kind} job carries unreadable data`);
  }
}

const deliveryData = z.object({ deliveryId: z.string().uuid() });
const mailData = z.object({ outboxId: z.string().regex(/^\d{1,19}$/) });

export const relayOutboxEventsHandler =
  (useCase: Pick<RelayOutboxEvents, 'execute'>): JobHandler =>
  async () => {
    await useCase.execute();
  };

export const deliverWebhookHandler =
  (useCase: Pick<DeliverWebhook, 'execute'>): JobHandler =>
  async (data) => {
    const parsed = deliveryData.safeParse(data);
    if (!parsed.success) throw new JobDataInvalidError('webhook delivery');
    await useCase.execute(parsed.data.deliveryId);
  };

export const deliverMailHandler =
  (useCase: Pick<DeliverOutboxMail, 'execute'>): JobHandler =>
  async (data) => {
    const parsed = mailData.safeParse(data);
    if (!parsed.success) throw new JobDataInvalidError('mail delivery');
    await useCase.execute(parsed.data.outboxId);
  };

/** The pruning jobs: kind → daily cron (UTC), spread over the quiet hour. */
export const PRUNE_JOBS: Record<string, { kind: PruneKind; cron: string }> = {
  'prune.daily-usage': { kind: 'daily-usage', cron: '10 3 * * *' },
  'prune.sessions': { kind: 'sessions', cron: '15 3 * * *' },
  'prune.wallet-nonces': { kind: 'wallet-nonces', cron: '20 3 * * *' },
  'prune.outbox': { kind: 'outbox', cron: '25 3 * * *' },
  'prune.webhook-deliveries': { kind: 'webhook-deliveries', cron: '30 3 * * *' },
  'prune.mailbox': { kind: 'mailbox', cron: '35 3 * * *' },
  'prune.agent-events': { kind: 'agent-events', cron: '40 3 * * *' },
};

export const pruneHandler =
  (useCase: Pick<PruneOldData, 'execute'>, kind: PruneKind): JobHandler =>
  async () => {
    await useCase.execute(kind);
  };
