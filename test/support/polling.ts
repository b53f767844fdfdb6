/**
 * Waiting in tests: poll the state that proves the thing happened, never sleep a guessed time.
 * In a test body `expect.poll(read).toBe(...)` reads best; these helpers serve where the last value
 * read is needed afterwards (`waitFor`), where a failure should name what never came (`until`), and
 * where a short pause is itself the point (`sleep`: pacing load, or proving that something does
 * NOT happen, which the caller says in a comment).
 */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `read` until `done` holds, and returns the value that made it hold. After `timeoutMs` it throws,
 * naming the condition and the last value it saw, so a late event fails as a report of what was there
 * rather than as a crash on the line after the wait.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const started = Date.now();
  let v = await read();
  let reads = 1;
  while (!done(v)) {
    if (Date.now() - started >= timeoutMs) throw new WaitTimedOut(done, v, Date.now() - started, reads);
    await sleep(everyMs);
    v = await read();
    reads++;
  }
  return v;
}

export class WaitTimedOut extends Error {
  constructor(done: (v: never) => boolean, readonly lastSeen: unknown, elapsedMs: number, reads: number) {
    super(`waited ${elapsedMs} ms (${reads} reads) for ${done.toString()}; last seen: ${describe(lastSeen)}`);
    this.name = 'WaitTimedOut';
  }
}

function describe(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > 2_000 ? `${text.slice(0, 2_000)}… (${text.length} characters)` : text;
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
