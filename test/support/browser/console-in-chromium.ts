import { afterAll, beforeAll } from 'vitest';
import { launchChromium, type Chromium } from './chromium.js';
import { startConsoleService, type ConsoleService } from './console-service.js';

/**
 * What every browser test file starts, for the describe block it is called in: before its tests
 * the console service (`startConsoleService` with `env`, or the env `env()` resolves to, and
 * `opts`) and a Chromium; after them both closed. Both are started in `beforeAll`, never in the
 * describe body, which runs even when the file is skipped for want of Chromium. The tests read
 * `t.service`, `t.base` (the service's base URL) and `t.chromium`.
 */
export function consoleInChromium(
  env: Record<string, string> | (() => Promise<Record<string, string>>) = {},
  opts: { aiProvider?: boolean } = {},
): { readonly service: ConsoleService; readonly base: string; readonly chromium: Chromium } {
  const t = {} as { service: ConsoleService; base: string; chromium: Chromium };
  beforeAll(async () => {
    t.service = await startConsoleService(typeof env === 'function' ? await env() : env, opts);
    t.base = t.service.base;
    t.chromium = await launchChromium();
  });
  afterAll(async () => {
    await t.chromium?.close();
    await t.service?.stop();
  });
  return t;
}
