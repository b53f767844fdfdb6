/**
 * A signal for a provider call started before its reservation was taken: aborted by the caller
 * leaving (`caller`) or by `abort()`, when the reservation fails. Cheaper than AbortSignal.any on
 * every call, and the caller's listener is dropped once either fires.
 */
export function abortable(caller: AbortSignal | undefined): { readonly signal: AbortSignal; abort(): void } {
  const controller = new AbortController();
  if (!caller) return { signal: controller.signal, abort: () => controller.abort() };
  if (caller.aborted) controller.abort(caller.reason);
  const follow = () => controller.abort(caller.reason);
  caller.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    abort: () => {
      caller.removeEventListener('abort', follow);
      controller.abort();
    },
  };
}
