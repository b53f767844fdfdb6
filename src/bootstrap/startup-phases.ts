import { performance, type PerformanceMark } from 'node:perf_hooks';

/** Set by scripts/start.mjs once its build check is done (a User Timing mark: the same process). */
export const BUILD_CHECKED_MARK = 'agent-host:build-checked';

interface DebugLog {
  debug(obj: object, msg: string): void;
}

/**
 * How long each step of the start took, for the "service started" log line and the start-time
 * benchmark, and each at debug level as it ends. The first phase runs from the process's own start
 * (node boot, `npm start`'s build check, or the build itself when sources changed, and the
 * configuration modules); each later one from the mark before it. In main.ts: loadMs (buildCheckMs
 * apart when `npm start` ran the check), configMs, launchMs (until the embedded PostgreSQL's initdb
 * or server runs in its own process), modulesMs (the rest of the service, loaded while it starts),
 * databaseMs (what is left of waiting for it), containerMs, queueAndHttpMs (pg-boss start and the
 * HTTP server with its routes, built side by side, and what is left of the migrations), listenMs,
 * workerMs. Steps that overlap others also get their own duration (`time`): postgresMs (start, or
 * initdb and start), migrateMs (beside the container and the routes), routesMs, queueMs.
 */
export class StartupPhases {
  private last = 0;
  private readonly phases: Record<string, number> = {};
  private log: DebugLog | undefined;

  constructor() {
    const checked = performance.getEntriesByName(BUILD_CHECKED_MARK, 'mark')[0] as (PerformanceMark & { detail?: { ms?: number } }) | undefined;
    if (checked?.detail?.ms !== undefined) this.phases.buildCheckMs = Math.round(checked.detail.ms);
  }

  /** From now on each phase is logged at debug level as it ends; the ones already over are logged at once. */
  logTo(log: DebugLog): void {
    this.log = log;
    for (const [phase, ms] of Object.entries(this.phases)) log.debug({ phase, ms }, 'start-up phase');
  }

  /** Closes the phase that ended now under `name`. */
  readonly mark = (name: string): void => {
    const now = performance.now();
    this.record(name, now - this.last);
    this.last = now;
  };

  /** Records how long `work` itself takes, for a step that overlaps others. */
  async time<T>(name: string, work: Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await work;
    this.record(name, performance.now() - started);
    return result;
  }

  /** Milliseconds per phase, in order, and the total since the process started. */
  summary(): Record<string, number> {
    return { ...this.phases, totalMs: Math.round(this.last) };
  }

  private record(name: string, ms: number): void {
    this.phases[name] = Math.round(ms);
    this.log?.debug({ phase: name, ms: this.phases[name] }, 'start-up phase');
  }
}
