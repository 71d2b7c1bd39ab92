import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    // Vitest leaves one of the two cores of this machine idle by default; the tests mostly wait on I/O and on
    // child processes, so two workers halve the wall time (49 s → 26 s).
    maxWorkers: 2,
    testTimeout: 15_000,
    hookTimeout: 20_000,
  },
});
