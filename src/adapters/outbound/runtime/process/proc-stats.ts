import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

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

/** One read of every process in /proc; trees are then summed from it, so N runtimes cost one scan. */
export class ProcSnapshot {
  private readonly byPid = new Map<number, ProcEntry>();
  private readonly children = new Map<number, number[]>();

  constructor() {
    let names: string[];
    try {
      names = readdirSync('/proc');
    } catch {
      return; // no /proc (not Linux): every tree reads as gone
    }
    for (const name of names) {
      const pid = Number(name);
      if (!Number.isInteger(pid)) continue;
      const entry = readStat(pid);
      if (!entry) continue;
      this.byPid.set(pid, entry);
      const siblings = this.children.get(entry.ppid);
      if (siblings) siblings.push(pid);
      else this.children.set(entry.ppid, [pid]);
    }
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
function readStat(pid: number): ProcEntry | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
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
