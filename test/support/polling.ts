/**
 * Waiting in tests: poll the state that proves the thing happened, never sleep a guessed time.
 * In a test body `expect.poll(read).toBe(...)` reads best; these helpers serve where the last value
 * read is needed afterwards (`waitFor`), where a failure should name what never came (`until`), and
 * where a short pause is itself the point (`sleep`: pacing load, or proving that something does
 * NOT happen, which the caller says in a comment).
 */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `read` until `done` holds or `timeoutMs` passes; returns the last value read (the caller asserts on it). */
export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let v = await read();
  while (!done(v) && Date.now() < deadline) {
    await sleep(everyMs);
    v = await read();
  }
  return v;
}

/** Polls `probe` until it returns something truthy, and returns that; throws `timed out waiting for <what>` after `ms`. */
export async function until<T>(what: string, ms: number, probe: () => T | Promise<T>, everyMs = 200): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
