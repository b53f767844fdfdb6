import type pg from 'pg';
import type { InstanceLeases } from '../../../application/ports/instance-leases.port.js';
import type { UserId } from '../../../domain/shared/ids.js';

/** Takes the lease when free, expired or already ours; one statement, so racing workers see one winner. */
const ACQUIRE = `
  INSERT INTO instance_leases AS l (user_id, worker_id, expires_at)
  VALUES ($1::uuid, $2, now() + ($3::int * interval '1 millisecond'))
  ON CONFLICT (user_id) DO UPDATE SET worker_id = excluded.worker_id, expires_at = excluded.expires_at
   WHERE l.expires_at < now() OR l.worker_id = excluded.worker_id
  RETURNING user_id`;

/** Leases in PostgreSQL through the system pool; expiry by the database's `now()` only. */
export class PgInstanceLeases implements InstanceLeases {
  constructor(
    private readonly pool: pg.Pool,
    readonly workerId: string,
    private readonly leaseMs: number,
  ) {}

  async acquire(userId: UserId): Promise<boolean> {
    const r = await this.pool.query(ACQUIRE, [userId, this.workerId, this.leaseMs]);
    return r.rowCount === 1;
  }

  async renew(): Promise<UserId[]> {
    const r = await this.pool.query<{ user_id: UserId }>(
      `UPDATE instance_leases SET expires_at = now() + ($2::int * interval '1 millisecond')
        WHERE worker_id = $1 AND expires_at >= now() RETURNING user_id`,
      [this.workerId, this.leaseMs],
    );
    return r.rows.map((row) => row.user_id);
  }

  async release(userId: UserId): Promise<void> {
    await this.pool.query(`DELETE FROM instance_leases WHERE user_id = $1::uuid AND worker_id = $2`, [userId, this.workerId]);
  }

  async releaseAll(): Promise<void> {
    await this.pool.query(`DELETE FROM instance_leases WHERE worker_id = $1`, [this.workerId]);
  }

  async orphans(): Promise<{ userId: UserId; leaseExpired: boolean }[]> {
    const r = await this.pool.query<{ user_id: UserId; lease_expired: boolean }>(
      `SELECT i.user_id, l.user_id IS NOT NULL AS lease_expired FROM instances i LEFT JOIN instance_leases l ON l.user_id = i.user_id
        WHERE i.status = 'running' AND (l.user_id IS NULL OR l.expires_at < now()) ORDER BY i.user_id LIMIT 100`,
    );
    return r.rows.map((row) => ({ userId: row.user_id, leaseExpired: row.lease_expired }));
  }
}
