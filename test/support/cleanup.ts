import { afterAll, onTestFinished } from 'vitest';

/**
 * Runs `fn` when what made the resource is done: at the end of the test that called this, or, when
 * called at file level (outside any test), after the file's tests. `afterAll` registered from inside
 * a running test is never run, so test helpers must not use it directly.
 */
export function cleanUpLater(fn: () => unknown | Promise<unknown>): void {
  try {
    onTestFinished(async () => void (await fn()));
  } catch {
    afterAll(async () => void (await fn()));
  }
}
