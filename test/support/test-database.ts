import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { cleanUpLater } from './cleanup.js';
import { adminQuery, withDatabase } from './database-server.js';

/**
 * A fresh database for the calling test file, cloned from the run's migrated template.
 * Dropped when the file's tests are done.
 */
export async function createTestDatabase(): Promise<{ url: string; adminUrl: string; name: string }> {
  const adminUrl = inject('adminUrl');
  if (!adminUrl) throw new Error('no test PostgreSQL: see the [test-db] lines at the start of the run');
  const name = `t_${inject('runId')}_${randomBytes(4).toString('hex')}`;
  // CREATE DATABASE ... TEMPLATE fails while another clone copies the template: retry briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
      break;
    } catch (err) {
      if (attempt > 50 || !/being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
  cleanUpLater(async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  });
  return { url: withDatabase(adminUrl, name), adminUrl, name };
}
