import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * What a previous run may have left in a data directory, and how it is cleared before a start.
 *
 * A server we started is detached from our process group, so when our process dies without
 * calling stop() (SIGKILL, crash, a forgotten handle) the postmaster lives on, orphaned, with the
 * data directory locked. If the postmaster itself was killed, postmaster.pid stays behind and its
 * children may linger for a moment. Both are cleared here; a server whose owning process is still
 * alive is left alone (two live processes on one data directory is a mistake we report).
 */

const HAS_PROC = existsSync('/proc/self/stat');

/** Who started the server now running in a data directory (written next to the cluster). */
export interface OwnerRecord {
  pid: number;
  /** /proc start time of that pid, to tell a live owner from a recycled pid; null off Linux. */
  startTime: string | null;
  port: number;
}

export async function writeOwner(file: string, port: number): Promise<void> {
  const record: OwnerRecord = { pid: process.pid, startTime: await processStartTime(process.pid), port };
  await writeFile(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

export async function removeOwner(file: string): Promise<void> {
  await rm(file, { force: true });
}

async function readOwner(file: string): Promise<OwnerRecord | null> {
  try {
    const r = JSON.parse(await readFile(file, 'utf8')) as Partial<OwnerRecord>;
    return typeof r.pid === 'number' ? { pid: r.pid, startTime: r.startTime ?? null, port: r.port ?? 0 } : null;
  } catch {
    return null;
  }
}

async function processStartTime(pid: number): Promise<string | null> {
  const fields = await procStatFields(pid);
  return fields?.[19] ?? null; // field 22 of /proc/<pid>/stat, counted after "pid (comm)"
}

/** Fields of /proc/<pid>/stat from the state onward, or null when the process is gone. */
async function procStatFields(pid: number): Promise<string[] | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Alive and not a zombie: an orphan reparented to a PID 1 that does not reap stays a zombie. */
export async function isAlive(pid: number): Promise<boolean> {
  if (HAS_PROC) {
    const state = (await procStatFields(pid))?.[0];
    return state !== undefined && state !== 'Z' && state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isSameLiveProcess(owner: OwnerRecord): Promise<boolean> {
  if (!(await isAlive(owner.pid))) return false;
  return owner.startTime === null || (await processStartTime(owner.pid)) === owner.startTime;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Waits until none of `pids` is alive; false on timeout. */
export async function waitGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = await Promise.all(pids.map(isAlive));
    if (!alive.includes(true)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Every live postgres process (postmaster or child) working in `realClusterDir`: PostgreSQL
 * processes chdir into their data directory, and the executable tells them from a shell that
 * happens to sit there. Linux only (/proc); elsewhere just the postmaster, via ps.
 */
async function serverProcessesOf(realClusterDir: string, postmasterPid: number | null): Promise<number[]> {
  if (!HAS_PROC) {
    if (postmasterPid === null || !(await isAlive(postmasterPid))) return [];
    const command = await new Promise<string>((resolve) =>
      execFile('ps', ['-o', 'command=', '-p', String(postmasterPid)], (err, out) => resolve(err ? '' : out)),
    );
    return command.includes('postgres') && command.includes(realClusterDir) ? [postmasterPid] : [];
  }
  const found: number[] = [];
  const entries = await readdir('/proc');
  await Promise.all(
    entries.map(async (name) => {
      if (!/^\d+$/.test(name)) return;
      const pid = Number(name);
      if (pid === process.pid) return;
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
      if (cwd !== realClusterDir) return;
      const exe = await readlink(`/proc/${pid}/exe`).catch(() => null);
      const comm = exe === null ? (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim() : '';
      if (!(exe !== null ? basename(exe).startsWith('postgres') : comm === 'postgres')) return;
      if (await isAlive(pid)) found.push(pid);
    }),
  );
  return found;
}

export interface ReclaimOptions {
  clusterDir: string;
  ownerFile: string;
  log: (m: string) => void;
  /** How long a stale postmaster gets for a fast shutdown before harder signals. */
  stopTimeoutMs: number;
}

/**
 * Makes `clusterDir` startable: stops a postmaster (and strays) left by a dead run of ours, and
 * removes a stale postmaster.pid. Does nothing, cheaply, when there is no postmaster.pid.
 */
export async function reclaimClusterDir(o: ReclaimOptions): Promise<void> {
  const pidFile = join(o.clusterDir, 'postmaster.pid');
  const content = await readFile(pidFile, 'utf8').catch(() => null);
  if (content === null) return;
  const parsed = Number.parseInt(content.split('\n')[0] ?? '', 10);
  const postmasterPid = Number.isInteger(parsed) && parsed > 0 ? parsed : null;

  const procs = await serverProcessesOf(await realpath(o.clusterDir), postmasterPid);
  if (procs.length > 0) {
    const owner = await readOwner(o.ownerFile);
    if (owner && owner.pid !== process.pid && (await isSameLiveProcess(owner))) {
      throw new Error(
        `Embedded PostgreSQL: the data directory ${o.clusterDir} is in use by a server that the live process ${owner.pid} ` +
          `started (port ${owner.port}). Stop that process first, or use another data directory.`,
      );
    }
    const postmasterAlive = postmasterPid !== null && procs.includes(postmasterPid);
    if (postmasterAlive) {
      o.log(`a server left by a previous run is still running (postmaster pid ${postmasterPid}): fast shutdown`);
      signal(postmasterPid, 'SIGINT');
    } else {
      o.log(`stray server processes of a dead postmaster (${procs.join(', ')}): stopping them`);
    }
    let gone = await waitGone(procs, postmasterAlive ? o.stopTimeoutMs : 2_000);
    for (const [sig, ms] of [['SIGQUIT', 3_000], ['SIGKILL', 2_000]] as const) {
      if (gone) break;
      const left = (await Promise.all(procs.map(async (p) => ((await isAlive(p)) ? p : null)))).filter((p) => p !== null);
      o.log(`server processes ${left.join(', ')} still alive: ${sig}`);
      for (const p of left) signal(p, sig);
      gone = await waitGone(left, ms);
    }
    if (!gone) throw new Error(`Embedded PostgreSQL: could not stop the stale server in ${o.clusterDir} (pids ${procs.join(', ')})`);
  }
  // Killed postmaster, recycled pid, or a server stopped above that did not clean up after itself.
  if (existsSync(pidFile)) {
    await rm(pidFile, { force: true });
    o.log(`removed a stale postmaster.pid (pid ${postmasterPid ?? '?'} is not a running server of this data directory)`);
  }
}
