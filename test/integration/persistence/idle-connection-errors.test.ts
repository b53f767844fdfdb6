import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgPools, logIdleConnectionError } from '../../../src/adapters/outbound/persistence/pg-pools.js';
import { createLogger } from '../../../src/bootstrap/logger.js';
import { createTestDatabase } from '../../support/test-database.js';

/**
 * The server ending an idle pooled connection, as PostgreSQL does to every connection when it stops
 * (a terminal's Ctrl-C reaches the embedded server too): 57P01 "terminating connection due to
 * administrator command", here made with pg_terminate_backend on a real server.
 */
describe('an idle pooled connection the database ends', () => {
  const lines: string[] = [];
  const log = createLogger({ LOG_LEVEL: 'info' }, new Writable({ write: (c, _e, done) => (lines.push(String(c)), done()) }));
  let pools: ReturnType<typeof createPgPools>;
  afterAll(() => pools?.end());

  it('is one info line with the code, never a warning carrying the pg client, and the pool works on', async () => {
    const db = await createTestDatabase();
    pools = createPgPools({ databaseUrl: db.url, size: 2, onError: logIdleConnectionError(log) });
    const client = await pools.owner.connect();
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    client.release(); // idle in the pool now

    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    await expect.poll(() => lines.length).toBeGreaterThan(0);
    const logged = lines.map((l) => JSON.parse(l));
    expect(logged).toEqual([expect.objectContaining({ level: 30, code: '57P01', msg: 'the database closed an idle connection (it is stopping or restarting)' })]);
    expect(lines.join('')).not.toMatch(/connectionParameters|"client"|_queryable/);
    expect((await pools.owner.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('any other failure is a warning with the error, still without the client', () => {
    const before = lines.length;
    const err = Object.assign(new Error('Connection terminated unexpectedly'), { client: { connectionParameters: { password: 'x' } } });
    Object.defineProperty(err, 'client', { enumerable: false });
    logIdleConnectionError(log)(err);
    const line = JSON.parse(lines[before]!);
    expect(line).toMatchObject({ level: 40, msg: 'idle database connection failed', err: { message: 'Connection terminated unexpectedly' } });
    expect(lines[before]).not.toContain('connectionParameters');
  });
});
