import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

/** Files that must get a module graph of their own: they replace a module with `vi.mock`. */
const OWN_MODULES = ['test/unit/secure-compare.test.ts'];
/** The tests that run the built dist/ (the CLI and the package as real processes): only they wait for a build. */
const BUILT = ['test/e2e/**/*.test.ts'];

export default defineConfig({
  test: {
    // The tests mostly wait on I/O and on child processes: on this machine's two cores, two workers halved the wall
    // time of one (49 s → 26 s), and a third fills more of the waits: six runs of the whole suite each, three
    // workers 52-70 s (median 58), two 63-74 s (median 68). Every test passed, the slowest at 7 s of its 15.
    maxWorkers: 3,
    // Worker threads rather than child processes: the same files in 49–50 s instead of 51–55 s, and about a tenth
    // less CPU (measured four times in alternation).
    pool: 'threads',
    // The longest files first, also in a clean clone, which has no durations of a last run (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Guards against a hang, not budgets: a test is bounded by its work, and a busy machine (two cores shared with
    // other runs) may take several times what a quiet one takes for the same work.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_MODULES, ...BUILT],
          // Isolated, every file paid for loading src/ and its dependencies again (hono, zod, the whole app):
          // about 0.6 s a file, over half a minute of the 73 s. No module here keeps state between files (every
          // test builds its own sandbox, store and clock), so a worker loads them once and runs file after file.
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
