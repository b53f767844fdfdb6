import type pg from 'pg';
import type { DatabasePing } from '../../../application/ports/database-ping.port.js';

/** `SELECT 1` on the system pool, given up after `timeoutMs`: health must answer quickly either way. */
export class PgDatabasePing implements DatabasePing {
  constructor(
    private readonly pool: pg.Pool,
    private readonly timeoutMs = 2_000,
  ) {}

  async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.timeoutMs)));
    try {
      return await Promise.race([this.pool.query('SELECT 1').then(() => true, () => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
