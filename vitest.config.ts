import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    setupFiles: ['test/support/setup-reflect.ts'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
