import { Kysely, Migrator, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { migrationProvider } from '../../../../migrations/index.js';

/**
 * Applies every pending migration as the owner. Kysely's Migrator takes an advisory lock,
 * so several processes booting at once migrate once.
 */
export async function migrateToLatest(owner: pg.Pool): Promise<string[]> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: owner as never }) });
  // Do not end `db`: that would end the caller's pool.
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
