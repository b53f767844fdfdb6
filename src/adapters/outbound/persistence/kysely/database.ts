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
  attempts: Generated<number>;
  last_error: string | null;
}

export interface WebhookEndpointsTable {
  id: Generated<string>;
  url: string;
  event_types: string[];
  description: string | null;
  key_id: string;
  sealed_secret: Buffer;
  created_by: string | null;
  created_at: Generated<Date>;
  secret_rotated_at: Timestamp | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: Generated<'pending' | 'retrying' | 'delivered' | 'dead'>;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  delivered_at: Timestamp | null;
}

export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  attempted_at: Timestamp;
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

/** migrations/2026_11_24_0022_one_call_grants.ts */
export interface OneCallGrantsTable {
  id: string;
  user_id: string;
  plugin: string;
  session_id: string;
  status: Generated<'pending' | 'paid' | 'consumed'>;
  paid_event_id: string | null;
  created_at: Generated<Date>;
  paid_at: Timestamp | null;
  consumed_at: Timestamp | null;
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
  /** Of used_units, those paid with credits when reserved (the rest came from the plan's daily allowance). */
  credit_units: Generated<number>;
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
  /** The lease: the call's process renews it while the call lives; the stale sweep reads it. */
  renewed_at: Generated<Date>;
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
  /** A reply's question's created_at (conversation order); null otherwise. */
  question_at: Date | null;
  /** The model that answered a reply, as the runtime reported it; null otherwise (migration 0085). */
  model: string | null;
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
  /** The claim answering it now (made by the claiming worker), and that worker's identity. */
  claim_id: string | null;
  claimed_by: string | null;
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

/** Money columns are bigint cents: the driver returns them as text, written as numbers. */
type Cents = ColumnType<string, number, number>;

export interface SkillEventsTable {
  id: Generated<string>;
  user_id: string;
  title: string;
  event_date: ColumnType<Date, string, never>;
  event_time: string;
  channels: string[];
  created_at: Generated<Date>;
}

export interface SkillEscrowsTable {
  id: Generated<string>;
  user_id: string;
  booking_id: string;
  guarantee_cents: Cents;
  backend_cents: Cents;
  deposit_cents: Cents;
  amount_cents: Cents;
  status: Generated<'held' | 'released'>;
  created_at: Generated<Date>;
  released_at: Date | null;
}

export interface SkillSplitRulesTable {
  id: Generated<string>;
  user_id: string;
  splits: ColumnType<unknown, string, string>;
  threshold_cents: Cents;
  pending_cents: ColumnType<string, number | undefined, number>;
  created_at: Generated<Date>;
}

export interface SkillSplitExecutionsTable {
  id: Generated<string>;
  rule_id: string;
  user_id: string;
  amount_cents: Cents;
  allocations: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
}

export interface SkillGuestlistsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  capacity: number;
  guest_count: Generated<number>;
  created_at: Generated<Date>;
}

export interface SkillGuestsTable {
  id: Generated<string>;
  list_id: string;
  user_id: string;
  name: string;
  email: string | null;
  checked_in_at: Date | null;
  created_at: Generated<Date>;
}

export interface SkillTicketEventsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  created_at: Generated<Date>;
}

export interface SkillTicketTiersTable {
  event_id: string;
  user_id: string;
  tier: string;
  price_cents: Cents;
  capacity: number;
  sold: Generated<number>;
}

export interface SkillTicketsTable {
  id: Generated<string>;
  event_id: string;
  user_id: string;
  tier: string;
  email: string;
  price_cents: Cents;
  created_at: Generated<Date>;
}

export interface SkillRoyaltiesTable {
  id: Generated<string>;
  user_id: string;
  source: string;
  amount_cents: Cents;
  period: string | null;
  created_at: Generated<Date>;
}

export interface SkillTracksTable {
  id: Generated<string>;
  user_id: string;
  title: string;
  artist: string;
  genre: string;
  duration_seconds: number;
  created_at: Generated<Date>;
}

export interface SkillFansTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  email: string | null;
  city: string | null;
  shows_attended: number;
  purchases: number;
  streams: number;
  created_at: Generated<Date>;
}

export interface SkillDemosTable {
  id: Generated<string>;
  user_id: string;
  title: string;
  artist: string;
  label: string | null;
  link: string | null;
  status: Generated<'submitted'>;
  created_at: Generated<Date>;
}

export interface SkillCalendarEntriesTable {
  id: Generated<string>;
  user_id: string;
  title: string;
  starts_at: Date;
  ends_at: Date;
  notes: string | null;
  created_at: Generated<Date>;
}

export interface SkillNotesTable {
  id: Generated<string>;
  user_id: string;
  title: string;
  content: string;
  created_at: Generated<Date>;
}

export interface MppChallengesTable {
  nonce: string;
  plugin: string;
  /** numeric(78,0): read back as a decimal string. */
  amount: ColumnType<string, string, string>;
  token: string;
  recipient: string;
  body_digest: Buffer;
  issued_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface MppPaymentsTable {
  id: Generated<string>;
  challenge_nonce: string;
  tx_hash: string;
  payer: string;
  amount: ColumnType<string, string, string>;
  plugin: string;
  status: ColumnType<'consumed' | 'served' | 'failed' | 'retrying', 'consumed' | 'served' | 'failed' | 'retrying' | undefined, 'consumed' | 'served' | 'failed' | 'retrying'>;
  attempts: Generated<number>;
  failure: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WalletNoncesTable {
  nonce_hash: Buffer;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface WalletIdentitiesTable {
  address: string;
  user_id: string;
  chain_id: number;
  created_at: Generated<Date>;
  last_sign_in_at: Generated<Date>;
}

/** Social identity sign-in (migration 0025). `fid` is a bigint: pg hands it over as text. */
export interface SocialIdentitiesTable {
  fid: string;
  user_id: string;
  created_at: Generated<Date>;
}

export interface SocialSessionFamiliesTable {
  id: Generated<string>;
  user_id: string;
  session_id: string | null;
  revoked_at: Timestamp | null;
  created_at: Generated<Date>;
}

export interface SocialRefreshTokensTable {
  token_hash: Buffer;
  family_id: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Generated<Date>;
}

export interface OAuthFlowsTable {
  state_hash: Buffer;
  provider: string;
  code_verifier: string;
  nonce: string | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface OAuthIdentitiesTable {
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  email_verified: Generated<boolean>;
  created_at: Generated<Date>;
  last_sign_in_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  email_verifications: EmailVerificationsTable;
  password_resets: PasswordResetsTable;
  outbox: OutboxTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  payment_customers: PaymentCustomersTable;
  subscriptions: SubscriptionsTable;
  processed_events: ProcessedEventsTable;
  credit_purchases: CreditPurchasesTable;
  one_call_grants: OneCallGrantsTable;
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
  skill_events: SkillEventsTable;
  skill_escrows: SkillEscrowsTable;
  skill_split_rules: SkillSplitRulesTable;
  skill_split_executions: SkillSplitExecutionsTable;
  skill_guestlists: SkillGuestlistsTable;
  skill_guests: SkillGuestsTable;
  skill_ticket_events: SkillTicketEventsTable;
  skill_ticket_tiers: SkillTicketTiersTable;
  skill_tickets: SkillTicketsTable;
  skill_royalties: SkillRoyaltiesTable;
  skill_tracks: SkillTracksTable;
  skill_fans: SkillFansTable;
  skill_demos: SkillDemosTable;
  skill_calendar_entries: SkillCalendarEntriesTable;
  skill_notes: SkillNotesTable;
  mpp_challenges: MppChallengesTable;
  mpp_payments: MppPaymentsTable;
  wallet_nonces: WalletNoncesTable;
  wallet_identities: WalletIdentitiesTable;
  social_identities: SocialIdentitiesTable;
  social_session_families: SocialSessionFamiliesTable;
  social_refresh_tokens: SocialRefreshTokensTable;
  oauth_flows: OAuthFlowsTable;
  oauth_identities: OAuthIdentitiesTable;
  wallets: WalletsTable;
  wallet_payouts: WalletPayoutsTable;
  instance_samples: InstanceSamplesTable;
  request_timings: RequestTimingsTable;
  platform_ticks: PlatformTicksTable;
}

export interface WalletPayoutsTable {
  id: Generated<string>;
  user_id: string;
  execution_id: string | null;
  position: Generated<number>;
  idempotency_key: string | null;
  request_hash: string;
  to_address: string;
  /** numeric(78,0): token units, read as text */
  amount: ColumnType<string, string, string>;
  amount_cents: ColumnType<string | null, number | null, number | null>;
  status: Generated<'pending' | 'submitted' | 'confirmed' | 'failed'>;
  from_address: string | null;
  transaction_hash: string | null;
  nonce: ColumnType<string | null, number | null, number | null>;
  raw_transaction: string | null;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface WalletsTable {
  id: Generated<string>;
  user_id: string;
  address: string;
  provider: string;
  provider_wallet_id: string | null;
  source: string;
  label: string | null;
  key_id: string | null;
  sealed_key: Buffer | null;
  created_at: Generated<Date>;
}

export interface InstanceSamplesTable {
  user_id: string;
  sampled_at: Date;
  cpu_percent: number;
  memory_percent: number;
  rss_bytes: ColumnType<string, number | string, number | string>;
}

export interface RequestTimingsTable {
  minute: Date;
  route: string;
  status_class: number;
  count: number;
  total_ms: number;
}

export interface PlatformTicksTable {
  minute: Date;
}
