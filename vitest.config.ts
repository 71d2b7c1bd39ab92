import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

/** Files that must get a module graph of their own: they replace a module with `vi.mock`. */
const OWN_MODULES = ['test/unit/secure-compare.test.ts'];
/** The tests that run the built dist/ (the CLI and the package as real processes): only they wait for a build. */
const BUILT = ['test/e2e/**/*.test.ts'];

export default defineConfig({
  test: {
    // The tests mostly wait on I/O and on child processes: on two cores a third worker fills more of the waits than
    // two do (the figures are in docs/performance.md, "The test suite").
    maxWorkers: 3,
    // Worker threads rather than child processes: a little faster, and less CPU (docs/performance.md).
    pool: 'threads',
    // The longest files first, also in a clean clone, which has no durations of a last run (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Guards against a hang, not budgets: a test is bounded by its work, and a busy machine (two cores shared with
    // other runs) may take several times what a quiet one takes for the same work.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each module as vite transformed it is kept on disk (node_modules/.experimental-vitest-cache, by its content),
    // so a run transforms only what changed since the last, and a file's run starts sooner.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_MODULES, ...BUILT],
          // Isolated, every file paid for loading src/ and its dependencies again (hono, zod, the whole app). No
          // module here keeps state between files (every test builds its own sandbox, store and clock), so a worker
          // loads them once and runs file after file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'own-modules', include: OWN_MODULES },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: BUILT,
          // Builds dist/ first where it is older than src/ (test/support/build.ts); runs only with this project.
          globalSetup: ['test/support/build.ts'],
          isolate: false,
        },
      },
    ],
  },
});
