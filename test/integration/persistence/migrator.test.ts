import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { migrateToLatest } from '../../../src/adapters/outbound/persistence/migrator.js';
import { createTestDatabase } from '../../support/test-database.js';

const db = await createTestDatabase(); // cloned from the migrated template
const owner = new pg.Pool({ connectionString: db.url, max: 2 });
afterAll(() => owner.end());

afterEach(() => vi.restoreAllMocks());

describe('migrations at start', () => {
  it('when every listed migration is applied, then the start costs one query and applies nothing', async () => {
    const connect = vi.spyOn(owner, 'connect');
    const query = vi.spyOn(owner, 'query');
    expect(await migrateToLatest(owner)).toEqual([]);
    expect(query).toHaveBeenCalledTimes(1);
    expect(connect).toHaveBeenCalledTimes(1); // pool.query's own checkout: no Migrator transaction
  });

  it('when one is missing from the record, then the Migrator takes over', async () => {
    const { rows } = await owner.query<{ name: string; timestamp: Date }>('select name, timestamp from kysely_migration order by name desc limit 1');
    const last = rows[0]!;
    await owner.query('delete from kysely_migration where name = $1', [last.name]);
    const connect = vi.spyOn(owner, 'connect');
    await migrateToLatest(owner).catch(() => []); // it re-runs the last migration, whose tables exist
    expect(connect.mock.calls.length).toBeGreaterThan(1);
    await owner.query('insert into kysely_migration (name, timestamp) values ($1, $2) on conflict do nothing', [last.name, last.timestamp]);
  });
});
