import { performance } from 'node:perf_hooks';

/**
 * How long each step of the start took, for the "service started" log line and the start-time
 * benchmark. The first phase runs from the process's own start (node boot, the build check,
 * module loading); each later one from the mark before it.
 */
export class StartupPhases {
  private last = 0;
  private readonly phases: Record<string, number> = {};

  /** Closes the phase that ended now under `name`. */
  readonly mark = (name: string): void => {
    const now = performance.now();
    this.phases[name] = Math.round(now - this.last);
    this.last = now;
  };

  /** Milliseconds per phase, in order, and the total since the process started. */
  summary(): Record<string, number> {
    return { ...this.phases, totalMs: Math.round(this.last) };
  }
}
