import type { RecordRequestTimings } from '../../../../application/metrics/record-request-timings.use-case.js';
import type { RouteTimings } from './route-timings.js';

/**
 * Writes the per-minute request aggregates every `intervalMs`, one statement per flush; a failed
 * flush puts its rows back for the next one. `stop` flushes what is left.
 */
export class RequestTimingFlusher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly timings: RouteTimings,
    private readonly record: Pick<RecordRequestTimings, 'execute'>,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  flush(): Promise<void> {
    this.running = this.running.then(async () => {
      const rows = this.timings.drain();
      try {
        await this.record.execute(rows);
      } catch (err) {
        this.timings.restore(rows);
        this.onError(err);
      }
    });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
