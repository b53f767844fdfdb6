import { Kysely, Migrator, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { migrationProvider } from '../../../../migrations/index.js';

/**
 * Applies every pending migration as the owner. Kysely's Migrator takes an advisory lock,
 * so several processes booting at once migrate once. A database that already has exactly this
 * list applied costs one query instead (the Migrator's check takes several round trips).
 */
export async function migrateToLatest(owner: pg.Pool): Promise<string[]> {
  if (await isCurrent(owner)) return [];
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: owner as never }) });
  // Do not end `db`: that would end the caller's pool.
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when the applied migrations are exactly the listed ones; anything else (no table yet) is the Migrator's to judge. */
async function isCurrent(owner: pg.Pool): Promise<boolean> {
  const listed = Object.keys(await migrationProvider.getMigrations()).sort();
  try {
    const { rows } = await owner.query<{ name: string }>('select name from kysely_migration');
    const applied = rows.map((r) => r.name).sort();
    return applied.length === listed.length && applied.every((name, i) => name === listed[i]);
  } catch {
    return false;
  }
}
