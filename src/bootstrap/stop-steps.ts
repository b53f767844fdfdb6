/**
 * How the process stops, in one order whatever order the start reached each part:
 * 1. no new jobs are fetched (at once: the HTTP drain below can take seconds);
 * 2. the HTTP server stops accepting and finishes the requests in flight;
 * 3. the infrastructure closes: the queue drains its jobs in flight, then the pools;
 * 4. the agent runtimes this worker owns go (their jobs are over).
 * The start adds each step as it opens what the step closes; a step not reached is skipped.
 */
export const STOP_ORDER = ['stop fetching jobs', 'close http', 'close infrastructure', 'close agent runtimes'] as const;

export type StopStep = (typeof STOP_ORDER)[number];

export class StopSteps {
  private readonly steps = new Map<StopStep, () => Promise<void> | void>();
  private readonly runs = new Map<StopStep, Promise<void>>();
  private stopRequested = false;

  constructor(private readonly onFailure: (step: StopStep, err: unknown) => void) {}

  /** Whether a stop was asked for: the start opens nothing more from then on. */
  get requested(): boolean {
    return this.stopRequested;
  }

  /** Registers what closes a part the start just opened. */
  add(step: StopStep, run: () => Promise<void> | void): void {
    this.steps.set(step, run);
  }

  /**
   * Runs the registered steps in STOP_ORDER, each at most once (a second caller waits for the
   * same runs); a step that fails is reported and the next ones still run. `upTo` stops after it.
   */
  async run(upTo?: StopStep): Promise<void> {
    this.stopRequested = true;
    for (const step of STOP_ORDER) {
      const run = this.steps.get(step);
      if (run) {
        if (!this.runs.has(step)) this.runs.set(step, Promise.resolve().then(run).catch((err) => this.onFailure(step, err)));
        await this.runs.get(step);
      }
      if (step === upTo) return;
    }
  }

  /** Marks the stop asked for without running anything yet (a signal during the start). */
  request(): void {
    this.stopRequested = true;
  }
}
