import pg from 'pg';

/**
 * The three pools of CONTRACT.md section 3. The owner pool migrates and runs pg-boss; the user and
 * system pools take their role as each connection opens, so even a query outside a unit of work
 * runs as a role without access to other users' rows. Dedicated logins (APP_DATABASE_URL,
 * SYSTEM_DATABASE_URL) replace the role switch when given.
 */
export interface PgPools {
  owner: pg.Pool;
  user: pg.Pool;
  system: pg.Pool;
  end(): Promise<void>;
}

export interface PgPoolOptions {
  databaseUrl: string;
  appDatabaseUrl?: string | undefined;
  systemDatabaseUrl?: string | undefined;
  size: number;
  onError?: (err: Error) => void;
}

// Timestamps come back as Date (timestamptz), bigint ids as strings: pg's defaults, kept.
function makePool(connectionString: string, max: number, role: string | null, onError?: (e: Error) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    ...(role ? { options: `-c role=${role}` } : {}),
  });
  // An idle client's error (server restart) must not crash the process: the pool drops it. pg hangs
  // the whole client (its connection, its configuration) on the error: never serialized into a log.
  pool.on('error', (err) => {
    Object.defineProperty(err, 'client', { enumerable: false });
    onError?.(err);
  });
  return pool;
}

export function createPgPools(o: PgPoolOptions): PgPools {
  const owner = makePool(o.databaseUrl, 4, null, o.onError);
  const user = makePool(o.appDatabaseUrl ?? o.databaseUrl, o.size, o.appDatabaseUrl ? null : 'app_user', o.onError);
  const system = makePool(o.systemDatabaseUrl ?? o.databaseUrl, Math.max(2, Math.ceil(o.size / 2)), o.systemDatabaseUrl ? null : 'app_system', o.onError);
  return {
    owner,
    user,
    system,
    async end() {
      await Promise.allSettled([owner.end(), user.end(), system.end()]);
    },
  };
}

/** Codes PostgreSQL ends a connection with when it is shutting down or restarting (admin, crash, cannot connect now). */
const SERVER_GOING_AWAY = new Set(['57P01', '57P02', '57P03']);

/**
 * How an idle pooled connection's failure is logged. The server ending it because it is shutting
 * down (57P01: the embedded PostgreSQL stopping with a terminal's Ctrl-C, or an operator's restart)
 * is expected and harmless (the pool opens a new connection when one is needed): one info line.
 * Anything else is a warning, with the error but never the client pg attaches to it.
 */
export function logIdleConnectionError(log: { info(o: object, m: string): void; warn(o: object, m: string): void }): (err: Error) => void {
  return (err) => {
    const code = (err as { code?: string }).code;
    if (code && SERVER_GOING_AWAY.has(code)) log.info({ code }, 'the database closed an idle connection (it is stopping or restarting)');
    else log.warn({ err }, 'idle database connection failed');
  };
}
