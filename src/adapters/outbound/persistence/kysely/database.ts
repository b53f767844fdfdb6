import type { ColumnType, Generated } from 'kysely';

/** Table types, one interface per table, as migrations/ creates them. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  password_hash: string | null;
  email_verified_at: Timestamp | null;
  credits: Generated<number>;
  referral_code: string;
  referred_by: string | null;
  notifications: ColumnType<Record<string, boolean>, string | undefined, string>;
  two_factor_enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: Buffer;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  lookup_id: string;
  key_hash: string;
  preview: string;
  created_at: Generated<Date>;
  last_used_at: Timestamp | null;
}

export interface EmailVerificationsTable {
  token_hash: Buffer;
  user_id: string;
  email: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PasswordResetsTable {
  token_hash: Buffer;
  user_id: string;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface OutboxTable {
  id: Generated<string>;
  user_id: string | null;
  topic: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  delivered_at: Timestamp | null;
}

export interface PaymentCustomersTable {
  user_id: string;
  customer_id: string;
  created_at: Generated<Date>;
}

export interface SubscriptionsTable {
  id: Generated<string>;
  processor_subscription_id: string;
  user_id: string | null;
  customer_id: string | null;
  kind: string | null;
  catalog: string | null;
  plan: string | null;
  status: string;
  current_period_end: Timestamp | null;
  last_event_at: Timestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ProcessedEventsTable {
  event_id: string;
  type: string;
  processed_at: Generated<Date>;
}

export interface CreditPurchasesTable {
  session_id: string;
  user_id: string;
  pack: string;
  credits: number;
  event_id: string;
  created_at: Generated<Date>;
}

export interface UnmatchedPaymentEventsTable {
  event_id: string;
  type: string;
  email: string | null;
  customer_id: string | null;
  subscription_id: string | null;
  session_id: string | null;
  catalog: string | null;
  plan: string | null;
  pack: string | null;
  event: ColumnType<Record<string, unknown>, string, string>;
  event_created_at: Timestamp;
  received_at: Generated<Date>;
  attached_at: Timestamp | null;
  attached_user_id: string | null;
  attached_via: string | null;
  attached_by_event_id: string | null;
  attached_outcome: string | null;
}

export interface DailyUsageTable {
  user_id: string;
  day: ColumnType<string, string, string>;
  used_units: Generated<number>;
}

/** Written only by the usage meter's SQL (pg-usage-meter.ts); typed here so the schema has one description. */
export interface UsageReservationsTable {
  id: string;
  payer: string;
  day: ColumnType<string, string, never>;
  units: ColumnType<number, number, never>;
  status: Generated<'open' | 'settled' | 'released'>;
  settled_units: number | null;
  created_at: ColumnType<Date, Date, never>;
  closed_at: Date | null;
}

export interface ByokKeysTable {
  user_id: string;
  provider: string;
  key_id: string;
  ciphertext: Buffer;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface InstancesTable {
  user_id: string;
  status: string;
  started_at: Timestamp | null;
  subdomain: string;
  url: string;
  plan: string;
  runtime_version: string;
  gateway_token_key_id: string;
  gateway_token_sealed: Buffer;
  gateway_token_hash: Buffer;
  /** numeric: read back as a string. */
  ram_gb: ColumnType<string, number | undefined, number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AgentsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  model: string;
  tier: string | null;
  status: string;
  config: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One current record per agent; a row means verified (migration 0016). */
export interface AgentVerificationsTable {
  agent_id: string;
  user_id: string;
  verification_type: string;
  attestation_uid: string | null;
  verifier_address: string | null;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  verified_at: Timestamp;
}

export interface AgentEventsTable {
  id: Generated<string>;
  agent_id: string;
  user_id: string;
  kind: string;
  duration_ms: number | null;
  reason: string | null;
  at: Timestamp;
}

export interface AgentMessagesTable {
  id: Generated<string>;
  agent_id: string;
  user_id: string;
  role: string;
  content: string;
  channel: Generated<string>;
  session_id: string | null;
  created_at: Generated<Date>;
}

export interface AgentSessionsTable {
  id: Generated<string>;
  agent_id: string;
  user_id: string;
  created_at: Generated<Date>;
}

export interface SkillInstallsTable {
  agent_id: string;
  user_id: string;
  skill_id: string;
  version: string;
  enabled: Generated<boolean>;
  installed_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AgentCredentialsTable {
  agent_id: string;
  user_id: string;
  name: string;
  key_id: string;
  sealed: Buffer;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ChannelProvisioningsTable {
  id: Generated<string>;
  user_id: string;
  agent_id: string;
  plan: string;
  ai_provider: string;
  channel_user_id_a: string | null;
  channel_token_a_key_id: string | null;
  channel_token_a_sealed: Buffer | null;
  channel_token_b_key_id: string | null;
  channel_token_b_sealed: Buffer | null;
  channel_token_c_key_id: string | null;
  channel_token_c_sealed: Buffer | null;
  api_key_key_id: string | null;
  api_key_sealed: Buffer | null;
  live_stream_id: string;
  stream_key_hash: Buffer;
  created_at: Generated<Date>;
}

export interface AgentMailboxTable {
  message_id: string;
  agent_id: string;
  user_id: string;
  seq: Generated<string>;
  status: Generated<string>;
  attempts: Generated<number>;
  reply_message_id: string | null;
  error_code: string | null;
  error: string | null;
  queued_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface AgentMemoryTable {
  agent_id: string;
  user_id: string;
  key: string;
  /** jsonb: written as JSON text, read back parsed. */
  value: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

export interface HeartbeatsTable {
  user_id: string;
  frequency: string;
  enabled: boolean;
  last_heartbeat: Timestamp | null;
  next_heartbeat: Timestamp | null;
  updated_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  email_verifications: EmailVerificationsTable;
  password_resets: PasswordResetsTable;
  outbox: OutboxTable;
  payment_customers: PaymentCustomersTable;
  subscriptions: SubscriptionsTable;
  processed_events: ProcessedEventsTable;
  credit_purchases: CreditPurchasesTable;
  unmatched_payment_events: UnmatchedPaymentEventsTable;
  daily_usage: DailyUsageTable;
  usage_reservations: UsageReservationsTable;
  byok_keys: ByokKeysTable;
  instances: InstancesTable;
  agents: AgentsTable;
  agent_events: AgentEventsTable;
  agent_messages: AgentMessagesTable;
  channel_provisionings: ChannelProvisioningsTable;
  agent_mailbox: AgentMailboxTable;
  agent_sessions: AgentSessionsTable;
  agent_credentials: AgentCredentialsTable;
  skill_installs: SkillInstallsTable;
  agent_memory: AgentMemoryTable;
  heartbeats: HeartbeatsTable;
  agent_verifications: AgentVerificationsTable;
}
