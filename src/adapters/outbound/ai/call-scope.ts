import { ProviderError } from '../../../application/ai/ai-provider.errors.js';

/** Abort reason of our own timer, so a timeout is never mistaken for the caller leaving. */
class TimeoutReason extends Error {}

/**
 * The life of one provider call: one AbortController fed by the caller's signal and by a
 * restartable timer. A hand-made timer rather than `AbortSignal.timeout` + `AbortSignal.any`
 * because streams need an idle timeout (restarted per chunk, paused while the consumer holds
 * a delta), and because removing our listener from the caller's signal at the end keeps long-
 * lived signals from collecting one listener per call.
 */
export class CallScope {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort = (): void => this.controller.abort(this.caller?.reason);

  constructor(
    private readonly provider: string,
    private readonly timeoutMs: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    caller?.throwIfAborted();
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.restartTimer();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Restarts the timeout: called when headers or a chunk arrive, and when the consumer asks for more. */
  restartTimer(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(new TimeoutReason()), this.timeoutMs);
  }

  /** Stops the clock while the caller, not the provider, is the one taking time. */
  pauseTimer(): void {
    clearTimeout(this.timer);
  }

  /** Ends the call. `abort` cancels a response still being received (the connection closes). */
  close(abort: boolean): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
    if (abort && !this.controller.signal.aborted) this.controller.abort();
  }

  /**
   * Translates what fetch or a body read threw into the port's vocabulary: the caller's own
   * abort reason when the caller left, `timeout` when our timer fired, `network` otherwise.
   * ProviderErrors raised on purpose pass through.
   */
  failure(err: unknown): unknown {
    if (err instanceof ProviderError) return err;
    if (this.caller?.aborted) return this.caller.reason;
    if (this.controller.signal.reason instanceof TimeoutReason) {
      return new ProviderError(this.provider, 'timeout', `${this.provider}: no answer within ${this.timeoutMs} ms`);
    }
    return new ProviderError(this.provider, 'network', `${this.provider}: network failure`, undefined, undefined, err);
  }
}
