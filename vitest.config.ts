import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, so the
    // suite ran file after file (529 s). Most files wait on PostgreSQL, child processes and timers, not
    // the CPU: three workers take 270 to 280 s there, with every test passing in repeated runs.
    maxWorkers: 3,
    testTimeout: 30_000,
    // A loaded 2-core machine (CI runs beside other work) can take seconds to settle in the background.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    setupFiles: ['test/support/setup-reflect.ts'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
