import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    testTimeout: 15_000,
    hookTimeout: 20_000,
  },
});
