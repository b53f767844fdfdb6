import type { Kysely } from 'kysely';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { MailOutbox, Outbox, OutboxTopic } from '../../../../application/ports/outbox.port.js';
import type { JobSender } from '../../../../application/ports/job-queue.port.js';
import { RELAY_OUTBOX_EVENTS_JOB } from '../../../../application/webhooks/webhook-jobs.js';
import type { Database } from './database.js';

/**
 * An event wakes the relay with a job sent in the same transaction, so it is relayed within a
 * second of its commit (the scheduled sweep is the safety net, not the path).
 */
export class KyselyOutbox implements Outbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobSender,
  ) {}

  async add(topic: OutboxTopic, userId: UserId | null, payload: Record<string, unknown>): Promise<void> {
    await this.db.insertInto('outbox').values({ topic, user_id: userId, payload: JSON.stringify(payload) }).execute();
    if (topic !== 'mail') await this.jobs.send({ queue: 'webhooks', kind: RELAY_OUTBOX_EVENTS_JOB, data: {} });
  }
}

export class KyselyMailOutbox implements MailOutbox {
  constructor(private readonly db: Kysely<Database>) {}

  async add(mail: { to: string; subject: string; text: string; html?: string | undefined }, userId: UserId | null): Promise<string> {
    const payload = { to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) };
    const row = await this.db.insertInto('outbox').values({ topic: 'mail', user_id: userId, payload: JSON.stringify(payload) }).returning('id').executeTakeFirstOrThrow();
    return String(row.id);
  }
}
