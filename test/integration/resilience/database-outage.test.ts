import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../../src/bootstrap/dev-infrastructure/embedded-postgres/embedded-postgres-server.js';
import { prepareDatabase } from '../../../src/adapters/outbound/persistence/prepare-database.js';
import { call, signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

// This test stops and restarts PostgreSQL, so it runs its own server, never the shared one.
const dir = mkdtempSync(join(tmpdir(), 'agent-host-outage-'));
let server: EmbeddedPostgresHandle = await startEmbeddedPostgres({ dataDir: dir, settings: { fsync: false } });
const port = server.port;
const owner = new pg.Pool({ connectionString: server.connectionString, max: 1 });
await prepareDatabase(owner, server.connectionString);
await owner.end();
const { app } = await startTestApp({ databaseUrl: server.connectionString });
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('when the database goes away', () => {
  it('requests answer 503 quickly, the process stays up, and it recovers by itself when the database returns', async () => {
    const u = await signUpAndIn(app);
    expect((await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).status).toBe(200);

    await server.stop();
    const started = Date.now();
    const down = await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } });
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('DATABASE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(6_000);
    const signInDown = await call(app, { method: 'POST', url: '/api/auth/callback/credentials', payload: { email: u.email, password: u.password } });
    expect(signInDown.status).toBe(503);
    expect((await call(app, { method: 'GET', url: '/health' })).status).toBe(503);

    server = await startEmbeddedPostgres({ dataDir: dir, port, settings: { fsync: false } });
    await expect.poll(async () => (await call(app, { method: 'GET', url: '/api/settings', headers: { cookie: u.cookie } })).status, { timeout: 15_000, interval: 250 }).toBe(200);
    expect((await call(app, { method: 'GET', url: '/health' })).status).toBe(200);
  });
});
