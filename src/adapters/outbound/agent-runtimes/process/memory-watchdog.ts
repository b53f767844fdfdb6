import { ProcSnapshot, type ProcTrees } from './proc-stats.js';

export interface Watched {
  pid: number;
  capBytes: number;
  /** Called once the tree's resident memory is above `capBytes`. */
  over(rssBytes: number): void;
}

/**
 * Samples the resident memory of every watched process tree on one timer. With `trees` (ProcTrees)
 * each tick reads the watched trees alone, at once (two preads per program, some 30 µs: no scan of
 * every process on the machine); without, one /proc scan per tick, however many runtimes. Runs only
 * while something is watched; never keeps the process alive.
 */
export class MemoryWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    private readonly intervalMs: number,
    private readonly watched: () => Watched[],
    private readonly trees: ProcTrees | null = null,
  ) {}

  /** Starts ticking if it is not; call after adding a watched process. */
  wake(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.trees?.retain(new Set());
  }

  private async tick(): Promise<void> {
    if (this.busy) return; // a slow scan (a loaded host) is not stacked up
    const watched = this.watched();
    if (watched.length === 0) return this.stop();
    if (this.trees) {
      this.trees.retain(new Set(watched.map((w) => w.pid)));
      for (const w of watched) {
        const tree = this.trees.tree(w.pid);
        if (tree && tree.rssBytes > w.capBytes) w.over(tree.rssBytes);
      }
      return;
    }
    this.busy = true;
    try {
      const snapshot = await ProcSnapshot.take();
      // asked again after the scan: what was stopped meanwhile is no longer watched
      for (const w of this.watched()) {
        const tree = snapshot.tree(w.pid);
        if (tree && tree.rssBytes > w.capBytes) w.over(tree.rssBytes);
      }
    } finally {
      this.busy = false;
    }
  }
}
