import { sql, type Kysely, type Selectable } from 'kysely';
import type { DeliveryWork, WebhookDelivery, WebhookDeliveryRepository, WebhookDeliveryStatus, WebhookEndpoint, WebhookEndpointRepository } from '../../../../application/ports/webhook-repositories.port.js';
import type { OutboxEvent, OutboxReader } from '../../../../application/ports/outbox-reader.port.js';
import type { RetentionRepository } from '../../../../application/ports/retention-repository.port.js';
import type { SealedSecret } from '../../../../application/ports/secret-box.port.js';
import type { WebhookEventType } from '../../../../domain/webhooks/webhook-target.js';
import type { Database, WebhookDeliveriesTable } from './database.js';

const ENDPOINT_COLUMNS = ['id', 'url', 'event_types', 'description', 'created_at', 'secret_rotated_at'] as const;

const toEndpoint = (r: { id: string; url: string; event_types: string[]; description: string | null; created_at: Date; secret_rotated_at: Date | null }): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  eventTypes: r.event_types as WebhookEventType[],
  description: r.description,
  createdAt: r.created_at,
  secretRotatedAt: r.secret_rotated_at,
});

const toDelivery = (r: Selectable<WebhookDeliveriesTable>): WebhookDelivery => ({
  id: r.id,
  endpointId: r.endpoint_id,
  eventId: String(r.event_id),
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  lastStatusCode: r.last_status_code,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deliveredAt: r.delivered_at,
});

export class KyselyWebhookEndpoints implements WebhookEndpointRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: { id: string; url: string; eventTypes: WebhookEventType[]; description: string | null; secret: SealedSecret; createdBy: string }): Promise<WebhookEndpoint> {
    const row = await this.db
      .insertInto('webhook_endpoints')
      .values({ id: e.id, url: e.url, event_types: e.eventTypes, description: e.description, key_id: e.secret.keyId, sealed_secret: e.secret.ciphertext, created_by: e.createdBy })
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirstOrThrow();
    return toEndpoint(row);
  }

  async list(): Promise<WebhookEndpoint[]> {
    return (await this.db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).orderBy('created_at', 'desc').orderBy('id').execute()).map(toEndpoint);
  }

  async find(id: string): Promise<WebhookEndpoint | null> {
    const row = await this.db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toEndpoint(row) : null;
  }

  async replaceSecret(id: string, secret: SealedSecret, at: Date): Promise<boolean> {
    const r = await this.db
      .updateTable('webhook_endpoints')
      .set({ key_id: secret.keyId, sealed_secret: secret.ciphertext, secret_rotated_at: at })
      .where('id', '=', id)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }

  async subscribedTo(type: string): Promise<{ id: string }[]> {
    return this.db.selectFrom('webhook_endpoints').select('id').where(sql<boolean>`${type} = any(event_types)`).orderBy('id').execute();
  }
}

export class KyselyWebhookDeliveries implements WebhookDeliveryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async createOnce(endpointId: string, eventId: string, eventType: string): Promise<string | null> {
    const row = await this.db
      .insertInto('webhook_deliveries')
      .values({ endpoint_id: endpointId, event_id: eventId, event_type: eventType })
      .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async load(deliveryId: string): Promise<DeliveryWork | null> {
    const d = await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirst();
    if (!d) return null;
    const e = await this.db.selectFrom('webhook_endpoints').select(['url', 'key_id', 'sealed_secret']).where('id', '=', d.endpoint_id).executeTakeFirst();
    if (!e) return null;
    const ev = await this.db.selectFrom('outbox').select(['id', 'topic', 'payload', 'created_at']).where('id', '=', String(d.event_id)).executeTakeFirst();
    return {
      delivery: toDelivery(d),
      url: e.url,
      secret: { keyId: e.key_id, ciphertext: e.sealed_secret },
      event: ev ? { id: String(ev.id), type: ev.topic, payload: ev.payload, createdAt: ev.created_at } : null,
    };
  }

  /** The summary on the delivery, and the attempt itself as its own row, in one statement each. */
  async recordAttempt(deliveryId: string, a: { status: WebhookDeliveryStatus; statusCode: number | null; error: string | null; at: Date }): Promise<void> {
    const updated = await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: a.status,
        attempts: eb('attempts', '+', 1),
        last_status_code: a.statusCode,
        last_error: a.error,
        updated_at: a.at,
        delivered_at: a.status === 'delivered' ? a.at : null,
      }))
      .where('id', '=', deliveryId)
      .returning('attempts')
      .executeTakeFirst();
    if (!updated) return;
    await this.db
      .insertInto('webhook_delivery_attempts')
      .values({ delivery_id: deliveryId, attempt: updated.attempts, status_code: a.statusCode, error: a.error, attempted_at: a.at })
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
      .execute();
  }

  async recent(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('created_at', 'desc')
      .orderBy('event_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }
}

const toEvent = (r: { id: string; topic: string; payload: Record<string, unknown>; created_at: Date }): OutboxEvent => ({
  id: String(r.id),
  topic: r.topic,
  payload: r.payload,
  createdAt: r.created_at,
});

export class KyselyOutboxReader implements OutboxReader {
  constructor(private readonly db: Kysely<Database>) {}

  async claimUndelivered(topics: readonly string[], limit: number): Promise<OutboxEvent[]> {
    if (topics.length === 0) return [];
    const rows = await this.db
      .selectFrom('outbox')
      .select(['id', 'topic', 'payload', 'created_at'])
      .where('delivered_at', 'is', null)
      .where('topic', 'in', [...topics])
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    return rows.map(toEvent);
  }

  async findUndelivered(id: string): Promise<OutboxEvent | null> {
    const row = await this.db
      .selectFrom('outbox')
      .select(['id', 'topic', 'payload', 'created_at'])
      .where('id', '=', id)
      .where('delivered_at', 'is', null)
      .executeTakeFirst();
    return row ? toEvent(row) : null;
  }

  async markDelivered(ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable('outbox').set({ delivered_at: at }).where('id', 'in', [...ids]).execute();
  }

  async recordFailure(id: string, error: string): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error }))
      .where('id', '=', id)
      .execute();
  }
}

export class KyselyRetention implements RetentionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async dailyUsageBefore(day: string): Promise<number> {
    // the API keys' day counters go with the days they counted (decision 0425)
    const keys = count(await this.db.deleteFrom('api_key_usage').where('day', '<', day as never).executeTakeFirst());
    return keys + count(await this.db.deleteFrom('daily_usage').where('day', '<', day as never).executeTakeFirst());
  }

  async expiredSessions(now: Date): Promise<number> {
    return count(await this.db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst());
  }

  async expiredWalletNonces(now: Date): Promise<number> {
    return count(await this.db.deleteFrom('wallet_nonces').where('expires_at', '<', now).executeTakeFirst());
  }

  async outboxBefore(before: Date): Promise<number> {
    const r = await this.db
      .deleteFrom('outbox')
      .where((eb) => eb.or([eb('delivered_at', '<', before), eb.and([eb('topic', '=', 'mail'), eb('created_at', '<', before)])]))
      .executeTakeFirst();
    return count(r);
  }

  async webhookDeliveriesBefore(before: Date): Promise<number> {
    return count(await this.db.deleteFrom('webhook_deliveries').where('created_at', '<', before).executeTakeFirst());
  }

  async answeredMailboxBefore(before: Date, batch: number): Promise<number> {
    // an index range (agent_mailbox_answered_idx): the rows past retention, oldest first, and no others
    const { rows } = await sql<{ n: number }>`
      WITH gone AS (
        DELETE FROM agent_mailbox WHERE message_id IN (
          SELECT message_id FROM agent_mailbox WHERE status = 'answered' AND finished_at < ${before}
           ORDER BY finished_at LIMIT ${batch})
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM gone`.execute(this.db);
    return rows[0]!.n;
  }

  async messageEventsBefore(before: Date, batch: number): Promise<number> {
    // The same (agent_events_message_at_idx); the events go and their counts join their agent's
    // totals in one statement (all or nothing: an agent removed meanwhile fails the batch, which
    // the next run redoes).
    const { rows } = await sql<{ n: number }>`
      WITH gone AS (
        DELETE FROM agent_events WHERE id IN (
          SELECT id FROM agent_events WHERE kind IN ('message_answered', 'message_failed') AND at < ${before}
           ORDER BY at LIMIT ${batch})
        RETURNING agent_id, user_id, kind, duration_ms
      ), sums AS (
        SELECT agent_id, user_id,
               count(*) FILTER (WHERE kind = 'message_answered') AS answered,
               count(*) FILTER (WHERE kind = 'message_failed') AS failed,
               coalesce(sum(duration_ms) FILTER (WHERE kind = 'message_answered'), 0) AS answered_ms,
               count(duration_ms) FILTER (WHERE kind = 'message_answered') AS timed
          FROM gone GROUP BY agent_id, user_id
      ), added AS (
        INSERT INTO agent_message_totals AS t (agent_id, user_id, answered, failed, answered_ms, timed)
        SELECT agent_id, user_id, answered, failed, answered_ms, timed FROM sums
        ON CONFLICT (agent_id) DO UPDATE SET answered = t.answered + excluded.answered, failed = t.failed + excluded.failed,
          answered_ms = t.answered_ms + excluded.answered_ms, timed = t.timed + excluded.timed
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM gone)::int AS n, (SELECT count(*) FROM added)::int AS agents`.execute(this.db);
    return rows[0]!.n;
  }
}

const count = (r: { numDeletedRows: bigint }): number => Number(r.numDeletedRows);
