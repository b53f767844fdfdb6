import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
    projects: [
      // Unit tests start no service, process or database of their own: one worker runs file after file
      // with the modules it has already loaded (import, not the tests, was most of their time: 130 s
      // isolated against 27 s here, the same 479 tests, at load 10).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      // The rest start services, workers and child processes whose module state must not outlive a file.
      { extends: true, test: { name: 'service', include: ['test/**/*.test.ts'], exclude: ['test/unit/**'] } },
    ],
  },
});
