import type { Kysely } from 'kysely';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { Outbox, OutboxTopic } from '../../../../application/ports/outbox.port.js';
import type { Database } from './database.js';

export class KyselyOutbox implements Outbox {
  constructor(private readonly db: Kysely<Database>) {}

  async add(topic: OutboxTopic, userId: UserId | null, payload: Record<string, unknown>): Promise<void> {
    await this.db.insertInto('outbox').values({ topic, user_id: userId, payload: JSON.stringify(payload) }).execute();
  }
}
