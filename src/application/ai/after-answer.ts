/**
 * The moment a chat answer has been written to its client's socket, or is known never to be
 * (decision 0375). The HTTP layer calls `written` right after the answer's last socket write, in
 * the same synchronous turn; the settlement waits here, its connection checked out, and is written
 * then. A crash can no longer fall between the two except within that one turn (a kill of the
 * process or of the machine), and the answer no longer waits for the settlement's write.
 */
export class AfterAnswer {
  private done = false;
  private waiting: (() => void)[] | null = null;

  /** The answer is out (or never will be): runs what waited, in order. Once; harmless after. */
  readonly written = (): void => {
    if (this.done) return;
    this.done = true;
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) for (const run of waiting) run();
  };

  /** Runs `run` once the answer is out: at once when it already is. */
  then(run: () => void): void {
    if (this.done) run();
    else (this.waiting ??= []).push(run);
  }
}
