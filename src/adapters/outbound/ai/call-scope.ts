import { ProviderError } from '../../../application/ai/ai-provider.errors.js';

/** Abort reason of our own timer, so a timeout is never mistaken for the caller leaving. */
class TimeoutReason extends Error {}

/** What a cancelled request fails with, as node:http's own `signal` handling would: an AbortError. */
function cancelledError(reason: unknown): Error {
  const err = new Error('The operation was aborted', { cause: reason });
  err.name = 'AbortError';
  return err;
}

/** What a call's request must offer to be cancelled: node:http's ClientRequest. */
export interface Cancellable {
  destroy(error?: Error): unknown;
}

/**
 * The life of one provider call: its request, cancelled by the caller's signal or by a restartable
 * timer. A hand-made timer rather than `AbortSignal.timeout` + `AbortSignal.any` because streams
 * need an idle timeout (restarted per chunk, paused while the consumer holds a delta), and because
 * removing our listener from the caller's signal at the end keeps long-lived signals from
 * collecting one listener per call. No AbortController of its own: the request is destroyed
 * directly (as node:http does for a `signal`), one controller, signal and listener less per call.
 */
export class CallScope {
  private timer: NodeJS.Timeout | undefined;
  private request: Cancellable | undefined;
  /** Why the call was cancelled, once it was: the caller's reason or our timeout. */
  private reason: unknown;
  private cancelled = false;
  private readonly onCallerAbort = (): void => this.cancel(this.caller?.reason);

  constructor(
    private readonly provider: string,
    private readonly timeoutMs: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    caller?.throwIfAborted();
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.restartTimer();
  }

  /** The call's request: destroyed (with its response) when the call is cancelled, at once if it already was. */
  attach(request: Cancellable): void {
    this.request = request;
    if (this.cancelled) request.destroy(cancelledError(this.reason));
  }

  /** Restarts the timeout: called when headers or a chunk arrive, and when the consumer asks for more. */
  restartTimer(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.cancel(new TimeoutReason()), this.timeoutMs);
  }

  /** Stops the clock while the caller, not the provider, is the one taking time. */
  pauseTimer(): void {
    clearTimeout(this.timer);
  }

  /** Ends the call. `abort` cancels a response still being received (the connection closes). */
  close(abort: boolean): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
    if (abort) this.cancel(undefined);
  }

  private cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    clearTimeout(this.timer);
    this.request?.destroy(cancelledError(reason));
  }

  /**
   * Translates what fetch or a body read threw into the port's vocabulary: the caller's own
   * abort reason when the caller left, `timeout` when our timer fired, `network` otherwise.
   * ProviderErrors raised on purpose pass through.
   */
  failure(err: unknown): unknown {
    if (err instanceof ProviderError) return err;
    if (this.caller?.aborted) return this.caller.reason;
    if (this.reason instanceof TimeoutReason) {
      return new ProviderError(this.provider, 'timeout', `${this.provider}: no answer within ${this.timeoutMs} ms`);
    }
    return new ProviderError(this.provider, 'network', `${this.provider}: network failure`, undefined, undefined, err);
  }
}
