import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/** What /proc says of one process tree (a runtime host and its descendants). */
export interface TreeSample {
  /** utime+stime+cutime+cstime summed over the tree, in seconds (reaped children stay counted). */
  cpuSeconds: number;
  rssBytes: number;
  pids: number;
}

interface ProcEntry {
  ppid: number;
  ticks: number;
  rssPages: number;
}

/**
 * One read of every process in /proc (no per-process `children` file on every kernel, so the
 * descendants come from the ppid of all); trees are then summed from it, so N runtimes cost one
 * scan. Read asynchronously: a few milliseconds of file reads stay off the event loop.
 */
export class ProcSnapshot {
  private readonly children = new Map<number, number[]>();

  private constructor(private readonly byPid: Map<number, ProcEntry>) {
    for (const [pid, entry] of byPid) {
      const siblings = this.children.get(entry.ppid);
      if (siblings) siblings.push(pid);
      else this.children.set(entry.ppid, [pid]);
    }
  }

  static async take(): Promise<ProcSnapshot> {
    const names = await readdir('/proc').catch(() => [] as string[]); // no /proc (not Linux): every tree reads as gone
    const pids = names.map(Number).filter((pid) => Number.isInteger(pid));
    const entries = await Promise.all(pids.map(async (pid) => [pid, await readStat(pid)] as const));
    return new ProcSnapshot(new Map(entries.filter((e): e is [number, ProcEntry] => e[1] !== null)));
  }

  /** The tree rooted at `pid`, or null when that process is gone. */
  tree(pid: number): TreeSample | null {
    if (!this.byPid.has(pid)) return null;
    let ticks = 0;
    let pages = 0;
    let pids = 0;
    const stack = [pid];
    while (stack.length > 0) {
      const p = stack.pop()!;
      const e = this.byPid.get(p);
      if (!e) continue;
      ticks += e.ticks;
      pages += e.rssPages;
      pids += 1;
      stack.push(...(this.children.get(p) ?? []));
    }
    return { cpuSeconds: ticks / clockTicks(), rssBytes: pages * pageSize(), pids };
  }
}

/**
 * Process trees read from their roots down, through each process's children
 * (`/proc/<pid>/task/<pid>/children`): two small reads per process of the tree, where a
 * ProcSnapshot reads every process on the machine. With a hundred agent-host programs beside a
 * database, the snapshot each second was most of a worker's idle CPU (docs/decisions/0367). The
 * roots' two files stay open between reads (one pread each, no open and close); a root's files are
 * closed once it is no longer asked for (`retain`) or is gone. A descendant is read by path.
 *
 * Children are listed per thread: those of the programs' main threads (where node spawns) are
 * followed, not any a worker thread might start. Without these files (a kernel built without
 * CONFIG_PROC_CHILDREN) `supported()` is false and callers take a ProcSnapshot instead.
 */
export class ProcTrees {
  private readonly roots = new Map<number, { stat: number; children: number }>();
  private readonly buffer = Buffer.alloc(4096);

  static supported(): boolean {
    return existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  }

  /** The tree rooted at `pid`, or null when that process is gone. */
  tree(pid: number): TreeSample | null {
    const root = this.rootFiles(pid);
    if (!root) return null;
    const entry = this.readOpen(root.stat);
    if (!entry) return this.drop(pid);
    let ticks = entry.ticks;
    let pages = entry.rssPages;
    let pids = 1;
    const stack = childPids(this.readText(root.children));
    for (let guard = 0; stack.length > 0 && guard < 10_000; guard++) {
      const p = stack.pop()!;
      const text = readOptional(`/proc/${p}/stat`);
      const e = text === null ? null : parseStat(text);
      if (!e) continue; // exited meanwhile
      ticks += e.ticks;
      pages += e.rssPages;
      pids += 1;
      stack.push(...childPids(readOptional(`/proc/${p}/task/${p}/children`) ?? ''));
    }
    return { cpuSeconds: ticks / clockTicks(), rssBytes: pages * pageSize(), pids };
  }

  /** Closes the files of the roots not in `pids`. */
  retain(pids: ReadonlySet<number>): void {
    for (const pid of [...this.roots.keys()]) if (!pids.has(pid)) this.drop(pid);
  }

  close(): void {
    this.retain(new Set());
  }

  private rootFiles(pid: number): { stat: number; children: number } | null {
    const open = this.roots.get(pid);
    if (open) return open;
    let stat: number | undefined;
    try {
      stat = openSync(`/proc/${pid}/stat`, 'r');
      const files = { stat, children: openSync(`/proc/${pid}/task/${pid}/children`, 'r') };
      this.roots.set(pid, files);
      return files;
    } catch {
      if (stat !== undefined) closeSync(stat);
      return null; // gone
    }
  }

  /** Null when the process behind the open file is gone (the read fails, or it is a zombie). */
  private readOpen(fd: number): ProcEntry | null {
    try {
      return parseStat(this.readText(fd));
    } catch {
      return null;
    }
  }

  private readText(fd: number): string {
    try {
      return this.buffer.toString('latin1', 0, readSync(fd, this.buffer, 0, this.buffer.length, 0));
    } catch {
      return '';
    }
  }

  private drop(pid: number): null {
    const files = this.roots.get(pid);
    this.roots.delete(pid);
    if (files) for (const fd of [files.stat, files.children]) closeSync(fd);
    return null;
  }
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null;
  }
}

const childPids = (text: string): number[] => text.split(' ').map(Number).filter((pid) => Number.isInteger(pid) && pid > 0);

/** /proc/<pid>/stat, fields counted after the command name (which may hold spaces and parentheses). */
async function readStat(pid: number): Promise<ProcEntry | null> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // exited meanwhile
  }
  return parseStat(text);
}

/** Null for a zombie (or a text that is not a stat line). */
function parseStat(text: string): ProcEntry | null {
  if (!text.includes(')')) return null;
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // f[0] is field 3 (state): ppid is field 4, utime..cstime fields 14..17, rss field 24
  const n = (field: number) => Number(f[field - 3]);
  if (f[0] === 'Z') return null; // a zombie holds no memory and is about to be reaped
  return { ppid: n(4), ticks: n(14) + n(15) + n(16) + n(17), rssPages: n(24) };
}

let ticksPerSecond: number | undefined;
let bytesPerPage: number | undefined;

/** USER_HZ, asked once; 100 (the value on every mainstream Linux build) when getconf is missing. */
function clockTicks(): number {
  return (ticksPerSecond ??= getconf('CLK_TCK', 100));
}

function pageSize(): number {
  return (bytesPerPage ??= getconf('PAGESIZE', 4096));
}

function getconf(name: string, fallback: number): number {
  try {
    const v = Number(execFileSync('getconf', [name], { encoding: 'utf8', timeout: 2_000 }).trim());
    return Number.isInteger(v) && v > 0 ? v : fallback;
  } catch {
    return fallback;
  }
}
