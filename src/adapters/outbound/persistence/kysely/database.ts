/**
 * The Kysely types of the database, under the names the repositories use. The tables themselves are
 * generated from the migrated schema (`npm run db:types` writes database.generated.ts; a test fails
 * when it differs from what the migrations produce): only aliases live here, never a column.
 */
import type * as Generated from './database.generated.js';

export type Database = Generated.DB;

export type SkillCalendarEntriesTable = Generated.SkillCalendarEntries;
export type SkillDemosTable = Generated.SkillDemos;
export type SkillEscrowsTable = Generated.SkillEscrows;
export type SkillFansTable = Generated.SkillFans;
export type SkillGuestlistsTable = Generated.SkillGuestlists;
export type SkillGuestsTable = Generated.SkillGuests;
export type SkillNotesTable = Generated.SkillNotes;
export type SkillRoyaltiesTable = Generated.SkillRoyalties;
export type SkillSplitExecutionsTable = Generated.SkillSplitExecutions;
export type SkillSplitRulesTable = Generated.SkillSplitRules;
export type SkillTicketsTable = Generated.SkillTickets;
export type SkillTracksTable = Generated.SkillTracks;
export type SubscriptionsTable = Generated.Subscriptions;
export type UnmatchedPaymentEventsTable = Generated.UnmatchedPaymentEvents;
export type UsersTable = Generated.Users;
export type WalletPayoutsTable = Generated.WalletPayouts;
export type WebhookDeliveriesTable = Generated.WebhookDeliveries;
