import { execFileSync } from 'node:child_process';
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

/** /proc/<pid>/stat, fields counted after the command name (which may hold spaces and parentheses). */
async function readStat(pid: number): Promise<ProcEntry | null> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // exited meanwhile
  }
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
