import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { MAILER, type Mailer } from '../ports/mailer.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { DeliverySystemScope } from '../ports/scopes/delivery-scope.port.js';
import { MailAttemptFailed } from './mail-attempt-failed.js';

/**
 * Sends one account mail kept in the outbox and marks it delivered. At least once: a crash after
 * the relay accepted the mail and before the mark sends it again on the retry (SMTP offers no
 * way to ask whether a message arrived); a mail already marked is never sent again.
 */
@injectable()
export class DeliverOutboxMail {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<DeliverySystemScope, 'outboxReader'>,
    @inject(MAILER) private readonly mailer: Mailer,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(outboxId: string): Promise<void> {
    const row = await this.uow.asSystem((s) => s.outboxReader.findUndelivered(outboxId));
    if (!row || row.topic !== 'mail') return;
    const p = row.payload as { to: string; subject: string; text: string; html?: string };
    try {
      await this.mailer.send({ to: p.to, subject: p.subject, text: p.text, ...(p.html ? { html: p.html } : {}) });
    } catch (err) {
      // the message is generic (the relay's answer can quote the address, never the body)
      const reason = err instanceof Error ? err.message : String(err);
      await this.uow.asSystem((s) => s.outboxReader.recordFailure(outboxId, reason));
      throw new MailAttemptFailed(`mail ${outboxId} not accepted by the relay: ${reason}`);
    }
    await this.uow.asSystem((s) => s.outboxReader.markDelivered([outboxId], this.clock.now()));
  }
}
