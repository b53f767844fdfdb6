import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { STARTING_COMMANDS, type ClaimedCommand, type CommandAnswer, type InstanceCommandKind, type InstanceCommands } from '../../../application/ports/instance-commands.port.js';
import type { UserId } from '../../../domain/shared/ids.js';

/** How often a waiting api process looks for the answer. */
const POLL_MS = 100;
/** A command older than this is never claimed (its caller has long given up). */
const STALE = `interval '10 minutes'`;

const STARTING = STARTING_COMMANDS.map((c) => `'${c}'`).join(', ');

/**
 * The oldest open command of an instance this worker holds, or nobody holds; FOR UPDATE SKIP
 * LOCKED so two workers never claim the same row.
 */
const CLAIM = `
  SELECT c.id, c.user_id, c.command FROM instance_commands c
    LEFT JOIN instance_leases l ON l.user_id = c.user_id
   WHERE c.claimed_by IS NULL AND c.created_at > now() - ${STALE}
     AND (l.user_id IS NULL OR l.expires_at < now() OR l.worker_id = $1)
   ORDER BY c.created_at
   FOR UPDATE OF c SKIP LOCKED LIMIT 1`;

/**
 * Whether any command may be claimable: one statement outside a transaction, so an empty poll (ten a
 * second per worker, nearly all of them) costs one round trip instead of BEGIN, CLAIM and COMMIT.
 */
const ANY_OPEN = `SELECT EXISTS (SELECT 1 FROM instance_commands WHERE claimed_by IS NULL AND created_at > now() - ${STALE}) AS open`;

const TAKE_LEASE = `
  INSERT INTO instance_leases AS l (user_id, worker_id, expires_at)
  VALUES ($1::uuid, $2, now() + ($3::int * interval '1 millisecond'))
  ON CONFLICT (user_id) DO UPDATE SET worker_id = excluded.worker_id, expires_at = excluded.expires_at
   WHERE l.expires_at < now() OR l.worker_id = excluded.worker_id
  RETURNING user_id`;

/**
 * The command table, polled: the api process polls its row for the answer, workers poll for open
 * commands (InstanceSupervisor). Polling keeps one mechanism that survives reconnects; the price
 * is up to one poll interval of latency.
 */
export class PgInstanceCommands implements InstanceCommands {
  constructor(private readonly pool: pg.Pool) {}

  async request(userId: UserId, command: InstanceCommandKind, timeoutMs: number): Promise<CommandAnswer | null> {
    const { rows } = await this.pool.query<{ id: string }>(`INSERT INTO instance_commands (user_id, command) VALUES ($1::uuid, $2) RETURNING id`, [userId, command]);
    const id = rows[0]!.id;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const r = await this.pool.query<{ answer: CommandAnswer | null }>(`SELECT answer FROM instance_commands WHERE id = $1`, [id]);
      const answer = r.rows[0]?.answer ?? null;
      if (answer) {
        await this.pool.query(`DELETE FROM instance_commands WHERE id = $1`, [id]);
        return answer;
      }
      if (performance.now() >= deadline) {
        // withdrawn unless a worker claimed it meanwhile; a claimed one finishes and is swept later
        await this.pool.query(`DELETE FROM instance_commands WHERE id = $1 AND claimed_by IS NULL`, [id]);
        return null;
      }
      await sleep(POLL_MS);
    }
  }

  async claim(workerId: string, leaseMs: number): Promise<ClaimedCommand | null> {
    // a command inserted after this look is found by the next poll, as one inserted after the claim's snapshot was
    if (!(await this.pool.query<{ open: boolean }>(ANY_OPEN)).rows[0]?.open) return null;
    const client = await this.pool.connect();
    // A checked-out client whose connection is cut (an outage, PostgreSQL stopping) emits 'error'
    // besides failing its query; the pool listens only while it is idle, so without this listener
    // the process crashed. The failed query is where the failure is handled.
    client.on('error', ignoreWhileQueryFails);
    let broken: unknown;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: string; user_id: UserId; command: InstanceCommandKind }>(CLAIM, [workerId]);
      const row = rows[0];
      if (!row) {
        await client.query('COMMIT');
        return null;
      }
      if ((STARTING_COMMANDS as readonly string[]).includes(row.command)) {
        const lease = await client.query(TAKE_LEASE, [row.user_id, workerId, leaseMs]);
        if (lease.rowCount !== 1) {
          await client.query('ROLLBACK');
          return null;
        }
      }
      await client.query(`UPDATE instance_commands SET claimed_by = $2 WHERE id = $1`, [row.id, workerId]);
      await client.query('COMMIT');
      return { id: row.id, userId: row.user_id, command: row.command };
    } catch (err) {
      broken = err;
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      // a failed claim's connection may be the broken one: destroyed rather than pooled again (and
      // still listened to while it closes); a healthy one goes back without this call's listener
      if (broken === undefined) client.off('error', ignoreWhileQueryFails);
      client.release(broken !== undefined);
    }
  }

  async answer(id: string, answer: CommandAnswer): Promise<void> {
    await this.pool.query(`UPDATE instance_commands SET answer = $2::jsonb, answered_at = now() WHERE id = $1`, [id, JSON.stringify(answer)]);
    // answers nobody waits for any more (the caller timed out) are swept here
    await this.pool.query(`DELETE FROM instance_commands WHERE answered_at < now() - ${STALE} OR (claimed_by IS NULL AND created_at < now() - ${STALE})`);
  }
}

function ignoreWhileQueryFails(): void {}
