/** Runs at most `max` tasks at once; the others wait in arrival order. */
export class ConcurrencyBound {
  running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be a positive integer');
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      // the slot passes straight to the next waiter, so `running` never dips below max while some wait
      if (next) next();
      else this.running--;
    }
  }
}
