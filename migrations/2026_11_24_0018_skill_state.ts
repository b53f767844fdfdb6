import { sql, type Kysely } from 'kysely';

/**
 * The stored state of the stateful skills (issue 9 item 5): scheduled events, booking escrows,
 * split rules and their executions, guestlists, ticketed events, royalty entries, the user's
 * own tracks, fans, demo submissions, calendar entries and notes. Every row belongs to one user; app_user sees and changes only its own (RLS), with
 * the narrowest grants each skill needs. Money is integer minor units (cents) in bigint columns.
 * app_system gets nothing: no system path reads skill state.
 */
const ME = `nullif(current_setting('app.user_id', true), '')::uuid`;

const TABLES = [
  'skill_events', 'skill_escrows', 'skill_split_rules', 'skill_split_executions', 'skill_guestlists',
  'skill_guests', 'skill_ticket_events', 'skill_ticket_tiers', 'skill_tickets', 'skill_royalties', 'skill_tracks',
  'skill_fans', 'skill_demos', 'skill_calendar_entries', 'skill_notes',
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  CREATE TABLE skill_events (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    event_date date NOT NULL,
    event_time text NOT NULL CHECK (event_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
    channels text[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
  );
  CREATE INDEX skill_events_user_idx ON skill_events (user_id, event_date, event_time, id);

  CREATE TABLE skill_escrows (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    booking_id text NOT NULL CHECK (char_length(booking_id) BETWEEN 1 AND 100),
    guarantee_cents bigint NOT NULL CHECK (guarantee_cents >= 0),
    backend_cents bigint NOT NULL CHECK (backend_cents >= 0),
    deposit_cents bigint NOT NULL CHECK (deposit_cents >= 0),
    amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
    status text NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'released')),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    released_at timestamptz,
    UNIQUE (user_id, booking_id),
    CHECK ((status = 'released') = (released_at IS NOT NULL))
  );

  CREATE TABLE skill_split_rules (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    splits jsonb NOT NULL,
    threshold_cents bigint NOT NULL CHECK (threshold_cents >= 0),
    pending_cents bigint NOT NULL DEFAULT 0 CHECK (pending_cents >= 0),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (id, user_id)
  );
  CREATE INDEX skill_split_rules_user_idx ON skill_split_rules (user_id, created_at, id);

  CREATE TABLE skill_split_executions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    rule_id uuid NOT NULL,
    user_id uuid NOT NULL,
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    allocations jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    FOREIGN KEY (rule_id, user_id) REFERENCES skill_split_rules (id, user_id) ON DELETE CASCADE
  );
  CREATE INDEX skill_split_executions_rule_idx ON skill_split_executions (rule_id, created_at, id);
  CREATE INDEX skill_split_executions_user_idx ON skill_split_executions (user_id);

  CREATE TABLE skill_guestlists (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    capacity integer NOT NULL CHECK (capacity > 0),
    guest_count integer NOT NULL DEFAULT 0 CHECK (guest_count >= 0 AND guest_count <= capacity),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (id, user_id)
  );
  CREATE INDEX skill_guestlists_user_idx ON skill_guestlists (user_id, created_at, id);

  CREATE TABLE skill_guests (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    list_id uuid NOT NULL,
    user_id uuid NOT NULL,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    email text,
    checked_in_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    FOREIGN KEY (list_id, user_id) REFERENCES skill_guestlists (id, user_id) ON DELETE CASCADE
  );
  CREATE INDEX skill_guests_list_idx ON skill_guests (list_id, created_at, id);

  CREATE TABLE skill_ticket_events (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (id, user_id)
  );

  CREATE TABLE skill_ticket_tiers (
    event_id uuid NOT NULL,
    user_id uuid NOT NULL,
    tier text NOT NULL CHECK (char_length(tier) BETWEEN 1 AND 100),
    price_cents bigint NOT NULL CHECK (price_cents >= 0),
    capacity integer NOT NULL CHECK (capacity > 0),
    sold integer NOT NULL DEFAULT 0 CHECK (sold >= 0 AND sold <= capacity),
    PRIMARY KEY (event_id, tier),
    FOREIGN KEY (event_id, user_id) REFERENCES skill_ticket_events (id, user_id) ON DELETE CASCADE
  );

  CREATE TABLE skill_tickets (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    event_id uuid NOT NULL,
    user_id uuid NOT NULL,
    tier text NOT NULL,
    email text NOT NULL,
    price_cents bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    FOREIGN KEY (event_id, tier) REFERENCES skill_ticket_tiers (event_id, tier) ON DELETE CASCADE,
    FOREIGN KEY (event_id, user_id) REFERENCES skill_ticket_events (id, user_id) ON DELETE CASCADE
  );
  CREATE INDEX skill_tickets_event_idx ON skill_tickets (event_id, created_at, id);

  CREATE TABLE skill_royalties (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source text NOT NULL CHECK (char_length(source) BETWEEN 1 AND 200),
    amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
    period text,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
  );
  CREATE INDEX skill_royalties_user_idx ON skill_royalties (user_id, created_at, id);

  CREATE TABLE skill_tracks (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    artist text NOT NULL CHECK (char_length(artist) BETWEEN 1 AND 200),
    genre text NOT NULL CHECK (char_length(genre) BETWEEN 1 AND 100),
    duration_seconds integer NOT NULL CHECK (duration_seconds BETWEEN 1 AND 86400),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
  );
  CREATE INDEX skill_tracks_user_idx ON skill_tracks (user_id, created_at, id);

  CREATE TABLE skill_fans (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    email text,
    city text,
    shows_attended integer NOT NULL CHECK (shows_attended >= 0),
    purchases integer NOT NULL CHECK (purchases >= 0),
    streams integer NOT NULL CHECK (streams >= 0),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
  );
  CREATE INDEX skill_fans_user_idx ON skill_fans (user_id, created_at, id);

  CREATE TABLE skill_demos (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    artist text NOT NULL CHECK (char_length(artist) BETWEEN 1 AND 200),
    label text,
    link text,
    status text NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted')),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
  );
  CREATE INDEX skill_demos_user_idx ON skill_demos (user_id, created_at, id);

  CREATE TABLE skill_calendar_entries (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    starts_at timestamptz NOT NULL,
    ends_at timestamptz NOT NULL,
    notes text,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK (ends_at > starts_at)
  );
  CREATE INDEX skill_calendar_entries_user_idx ON skill_calendar_entries (user_id, starts_at, id);

  CREATE TABLE skill_notes (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    content text NOT NULL CHECK (char_length(content) <= 20000),
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
  );
  CREATE INDEX skill_notes_user_idx ON skill_notes (user_id, created_at, id);

  GRANT SELECT, INSERT ON skill_fans, skill_demos, skill_calendar_entries, skill_notes TO app_user;
  GRANT SELECT, INSERT ON skill_events TO app_user;
  GRANT SELECT, INSERT ON skill_escrows TO app_user;
  GRANT UPDATE (status, released_at) ON skill_escrows TO app_user;
  GRANT SELECT, INSERT ON skill_split_rules TO app_user;
  GRANT UPDATE (pending_cents) ON skill_split_rules TO app_user;
  GRANT SELECT, INSERT ON skill_split_executions TO app_user;
  GRANT SELECT, INSERT ON skill_guestlists TO app_user;
  GRANT UPDATE (guest_count) ON skill_guestlists TO app_user;
  GRANT SELECT, INSERT, DELETE ON skill_guests TO app_user;
  GRANT UPDATE (checked_in_at) ON skill_guests TO app_user;
  GRANT SELECT, INSERT ON skill_ticket_events TO app_user;
  GRANT SELECT, INSERT ON skill_ticket_tiers TO app_user;
  GRANT UPDATE (sold) ON skill_ticket_tiers TO app_user;
  GRANT SELECT, INSERT ON skill_tickets TO app_user;
  GRANT SELECT, INSERT ON skill_royalties TO app_user;
  GRANT SELECT, INSERT ON skill_tracks TO app_user;
  ` +
        TABLES.map(
          (t) => `
  ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY;
  CREATE POLICY ${t}_own ON ${t} TO app_user USING (user_id = ${ME}) WITH CHECK (user_id = ${ME});`,
        ).join(''),
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TABLE ${[...TABLES].reverse().join(', ')}`).execute(db);
}
