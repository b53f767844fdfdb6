import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    // A loaded 2-core machine (CI runs beside other work) can take seconds to settle in the background.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    setupFiles: ['test/support/setup-reflect.ts'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
