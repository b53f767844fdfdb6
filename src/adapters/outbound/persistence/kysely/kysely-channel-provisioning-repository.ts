import type { Kysely } from 'kysely';
import type { ChannelProvisioningRepository, NewChannelProvisioning } from '../../../../application/ports/channel-provisioning-repository.port.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { Database } from './database.js';

/** The acting user's channel provisionings: insert only (RLS scoped; no secret column is readable by app_user). */
export class KyselyChannelProvisioningRepository implements ChannelProvisioningRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async insert(row: NewChannelProvisioning): Promise<void> {
    const { A, B, C } = row.channelTokens;
    await this.db
      .insertInto('channel_provisionings')
      .values({
        user_id: this.userId,
        agent_id: row.agentId,
        plan: row.plan,
        ai_provider: row.aiProvider,
        channel_user_id_a: row.channelUserIdA,
        channel_token_a_key_id: A?.keyId ?? null,
        channel_token_a_sealed: A?.ciphertext ?? null,
        channel_token_b_key_id: B?.keyId ?? null,
        channel_token_b_sealed: B?.ciphertext ?? null,
        channel_token_c_key_id: C?.keyId ?? null,
        channel_token_c_sealed: C?.ciphertext ?? null,
        api_key_key_id: row.apiKey?.keyId ?? null,
        api_key_sealed: row.apiKey?.ciphertext ?? null,
        live_stream_id: row.liveStreamId,
        stream_key_hash: row.streamKeyHash,
      })
      .execute();
  }
}
