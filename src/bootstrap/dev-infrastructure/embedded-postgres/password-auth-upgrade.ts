import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { assertTraversable, type PostgresOsUser } from './postgres-os-user.js';
import { PG_HBA, writeHba } from './postgres-cluster.js';
import { startServer } from './postgres-process.js';
import { SUPERUSER } from './embedded-shared.js';

/**
 * Brings an existing cluster to password authentication: one made before passwords (pg_hba.conf said
 * `trust`, the superuser had none), or one whose password file was lost. Never over TCP: the server
 * is started for this on a Unix socket in a fresh private directory (0700, the server's user), with
 * a pg_hba.conf that trusts that socket alone; the password is set, the final pg_hba.conf written,
 * and the server stopped. Every step can be repeated, so a crash part way is finished at the next
 * start: the password comes from the file (written before anything else), and the final pg_hba.conf
 * is written last.
 */
const MAINTENANCE_HBA = `# Written by embedded-postgres-server.ts while setting the superuser's password. Replaced when done.
# TYPE  DATABASE  USER      METHOD
local   all       ${SUPERUSER}  trust
`;

/** True unless pg_hba.conf is exactly the one that asks every connection for the password. */
export async function needsPasswordUpgrade(clusterDir: string): Promise<boolean> {
  const hba = await readFile(join(clusterDir, 'pg_hba.conf'), 'utf8').catch(() => '');
  return hba !== PG_HBA;
}

export async function upgradeToPassword(o: {
  bin: string;
  clusterDir: string;
  user: PostgresOsUser | null;
  password: string;
  log: (m: string) => void;
  timeoutMs: number;
}): Promise<void> {
  // Under os.tmpdir(): a socket path must stay short (about 100 bytes), which DATA_DIR may not be.
  if (o.user) await assertTraversable(tmpdir(), o.user, 'the temporary directory for the socket');
  await writeHba(o.clusterDir, MAINTENANCE_HBA, o.user);
  const socketDir = await mkdtemp(join(tmpdir(), 'embedded-pg-auth-'));
  try {
    if (o.user) await chown(socketDir, o.user.uid, o.user.gid);
    const port = 5432; // names the socket file only; nothing listens on TCP
    const server = await startServer({ bin: o.bin, clusterDir: o.clusterDir, port, user: o.user, settings: {}, log: o.log, timeoutMs: o.timeoutMs, socketDir });
    try {
      const client = new pg.Client({ host: socketDir, port, user: SUPERUSER, database: 'postgres' });
      await client.connect();
      try {
        await client.query(`SET password_encryption = 'scram-sha-256'`);
        await client.query(`ALTER ROLE ${SUPERUSER} PASSWORD ${client.escapeLiteral(o.password)}`);
      } finally {
        await client.end();
      }
      await writeHba(o.clusterDir, PG_HBA, o.user);
    } finally {
      await server.stop();
    }
  } finally {
    await rm(socketDir, { recursive: true, force: true });
  }
  o.log('the superuser now has a password; pg_hba.conf asks every connection for it (scram-sha-256)');
}
