import { defineConfig } from 'vitest/config';

/** Test files that run with the modules their worker already loaded (the `shared` project below). */
const SHARED = [
  'test/http/**/*.test.ts',
  'test/integration/{agents,resilience,persistence,ai,skills,gateway,payments,mail,queue,webhooks,metrics,maintenance,bot-detection,chain}/**/*.test.ts',
];

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
      // The files whose services, databases, workers and child processes are all started and ended by
      // their own hooks (the HTTP tests, the service's adapters, agents end to end, resilience): a worker
      // keeps the modules it imported for its next file instead of importing the application again
      // (decision 0477: the HTTP files alone, 193 s isolated and 83 s so).
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      // The rest (the runtimes' own files, the browser files, embedded PostgreSQL, the build) keep a fresh
      // module graph per file.
      { extends: true, test: { name: 'service', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', ...SHARED] } },
    ],
  },
});
