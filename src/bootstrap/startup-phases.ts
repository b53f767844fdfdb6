import { performance } from 'node:perf_hooks';

/**
 * How long each step of the start took, for the "service started" log line and the start-time
 * benchmark. The first phase runs from the process's own start (node boot, `npm start`'s build
 * check, or the build itself when sources changed, and the configuration modules); each later one
 * from the mark before it. In main.ts: loadMs, configMs, modulesMs (the rest of the service, loaded
 * while the embedded PostgreSQL starts), databaseMs (what is left of waiting for it), migrateMs,
 * queueAndHttpMs (pg-boss start and the HTTP server, built side by side), listenMs, workerMs.
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
