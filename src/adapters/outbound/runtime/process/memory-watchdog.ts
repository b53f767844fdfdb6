import { ProcSnapshot } from './proc-stats.js';

export interface Watched {
  pid: number;
  capBytes: number;
  /** Called once the tree's resident memory is above `capBytes`. */
  over(rssBytes: number): void;
}

/**
 * Samples the resident memory of every watched process tree on one timer (one /proc scan per
 * tick, however many runtimes). Runs only while something is watched; never keeps the process alive.
 */
export class MemoryWatchdog {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly watched: () => Watched[],
  ) {}

  /** Starts ticking if it is not; call after adding a watched process. */
  wake(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const list = this.watched();
    if (list.length === 0) return this.stop();
    const snapshot = new ProcSnapshot();
    for (const w of list) {
      const tree = snapshot.tree(w.pid);
      if (tree && tree.rssBytes > w.capBytes) w.over(tree.rssBytes);
    }
  }
}
