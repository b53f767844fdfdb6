import { inject, injectable } from 'tsyringe';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/webhook-target.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { DeliverySystemScope } from '../ports/scopes/delivery-scope.port.js';
import { DELIVER_WEBHOOK_JOB } from './webhook-jobs.js';

const BATCH = 100;

/**
 * Moves committed user events from the outbox to one delivery job per (event, subscribed
 * endpoint). Exactly once per pair under any number of concurrent relays: each batch is claimed
 * with SKIP LOCKED, the pair is a unique row, and the job is sent only by the transaction that
 * inserted the row, in that transaction. An event with no subscriber is marked relayed all the same.
 */
@injectable()
export class RelayOutboxEvents {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<DeliverySystemScope, 'outboxReader' | 'webhookEndpoints' | 'webhookDeliveries' | 'jobs'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Returns how many events were relayed. */
  async execute(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.uow.asSystem(async (s) => {
        const events = await s.outboxReader.claimUndelivered(WEBHOOK_EVENT_TYPES, BATCH);
        const subscribers = new Map<string, { id: string }[]>();
        for (const event of events) {
          if (!subscribers.has(event.topic)) subscribers.set(event.topic, await s.webhookEndpoints.subscribedTo(event.topic));
          for (const endpoint of subscribers.get(event.topic)!) {
            const deliveryId = await s.webhookDeliveries.createOnce(endpoint.id, event.id, event.topic);
            if (deliveryId) await s.jobs.send({ queue: 'webhooks', kind: DELIVER_WEBHOOK_JOB, data: { deliveryId } });
          }
        }
        await s.outboxReader.markDelivered(events.map((e) => e.id), this.clock.now());
        return events.length;
      });
      total += n;
      if (n < BATCH) return total;
    }
  }
}
