import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { MemoryStats, SystemStats } from '../../../application/ports/system-stats.port.js';

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Host CPU and memory from the OS. CPU is the busy share of all cores between two samples at
 * least `minIntervalMs` apart, so frequent health checks cost nothing and read a stable figure.
 */
export class OsSystemStats implements SystemStats {
  private last = this.sample();
  private lastPercent = 0;

  constructor(private readonly minIntervalMs = 1_000) {}

  cpuPercent(): number {
    const now = this.sample();
    if (now.at - this.last.at >= this.minIntervalMs) {
      const total = now.total - this.last.total;
      const idle = now.idle - this.last.idle;
      this.lastPercent = total > 0 ? round1(((total - idle) / total) * 100) : 0;
      this.last = now;
    }
    return this.lastPercent;
  }

  cores(): number {
    return os.availableParallelism();
  }

  /** "Used" excludes reclaimable page cache (MemAvailable), as the kernel itself counts it. */
  memory(): MemoryStats {
    const total = os.totalmem();
    const free = availableMemory() ?? os.freemem();
    const used = total - free;
    return { total, used, free, percent: round1((used / total) * 100) };
  }

  uptimeSeconds(): number {
    return Math.round(process.uptime());
  }

  private sample() {
    let total = 0;
    let idle = 0;
    for (const c of os.cpus()) {
      total += c.times.user + c.times.nice + c.times.sys + c.times.idle + c.times.irq;
      idle += c.times.idle;
    }
    return { at: Date.now(), total, idle };
  }
}

function availableMemory(): number | null {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
