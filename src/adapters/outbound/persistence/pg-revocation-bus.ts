import pg from 'pg';
import type { Revocation, RevocationBus } from '../../../application/ports/revocation-bus.port.js';

const CHANNEL = 'auth_revoked';
/** NOTIFY payloads are limited to 8000 bytes: larger revocations go in several notifications. */
const IDS_PER_NOTIFICATION = 100;

/**
 * Revocations over PostgreSQL LISTEN/NOTIFY: no extra infrastructure, and every process already
 * talks to the database. The listener holds one connection and reconnects after a failure.
 */
export class PgRevocationBus implements RevocationBus {
  private listener: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly connectionConfig: pg.ClientConfig,
    private readonly log: { warn(obj: object, msg?: string): void },
  ) {}

  async publish(r: Revocation): Promise<void> {
    for (let i = 0; i < r.ids.length; i += IDS_PER_NOTIFICATION) {
      const payload = JSON.stringify({ kind: r.kind, ids: r.ids.slice(i, i + IDS_PER_NOTIFICATION) });
      await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    }
  }

  /** Starts listening; `onRevocation` runs for every announcement, this process's own included. */
  async listen(onRevocation: (r: Revocation) => void): Promise<void> {
    this.stopped = false;
    const client = new pg.Client(this.connectionConfig);
    client.on('notification', (msg) => {
      try {
        const r = JSON.parse(msg.payload ?? '') as Revocation;
        if ((r.kind === 'session' || r.kind === 'api-key' || r.kind === 'user') && Array.isArray(r.ids)) onRevocation(r);
      } catch {
        this.log.warn({ channel: CHANNEL }, 'ignored a malformed revocation notification');
      }
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'revocation listener lost its connection; reconnecting');
      this.reconnect(onRevocation);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
    } catch (err) {
      await client.end().catch(() => {});
      this.log.warn({ err }, 'revocation listener could not connect; retrying');
      this.reconnect(onRevocation);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }

  private reconnect(onRevocation: (r: Revocation) => void): void {
    const old = this.listener;
    this.listener = null;
    void old?.end().catch(() => {});
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.listen(onRevocation);
    }, 1_000);
    this.retry.unref();
  }
}
