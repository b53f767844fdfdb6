import type { Channel } from '../../domain/agents/channel-provisioning.js';
import type { AiProviderName } from '../../domain/ai/ai-model.js';
import type { CheckoutPlan } from '../../domain/billing/plan-catalogs.js';
import type { SealedSecret } from './secret-box.port.js';

/** One POST /api/provision as stored: the agent it made and its channels' secrets, sealed. */
export interface NewChannelProvisioning {
  agentId: string;
  plan: CheckoutPlan;
  aiProvider: AiProviderName;
  channelUserIdA: string | null;
  /** Sealed with the context `channelSecretContext(userId, field)`; only the channels given. */
  channelTokens: Partial<Record<Channel, SealedSecret>>;
  apiKey: SealedSecret | null;
  liveStreamId: string;
  /** sha256 of the stream key: the key itself is shown once and never stored. */
  streamKeyHash: Buffer;
}

/** The authenticated data a channel secret is sealed with: it binds the owner and the field. */
export const channelSecretContext = (userId: string, field: `channelToken${Channel}` | 'apiKey'): string =>
  `channel-provisioning:${userId}:${field}`;

/** The acting user's channel provisionings (user unit of work; RLS scopes them). */
export interface ChannelProvisioningRepository {
  /** Appends one row for the acting user; concurrent inserts do not conflict. */
  insert(row: NewChannelProvisioning): Promise<void>;
}
