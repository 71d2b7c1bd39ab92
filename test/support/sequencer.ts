import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first, with their seconds in a clean clone's CI run (3 workers, 2 cores).
 * They start first: vitest orders files by the durations of the last run it remembers, and a clean clone (CI) has
 * none, so it ran them in the order it found them, and the browser test, started at 89 s of 114, made the run's
 * last 25 s alone. A file missing here only starts later; a name here that is no file is ignored.
 */
const LONGEST_FIRST = [
  'test/e2e/browser.test.ts', // 25.4
  'test/e2e/state-lock.test.ts', // 22.8
  'test/e2e/python-kit.test.ts', // 25.6 (one machine, 2 cores: pytest at -n 4, twice)
  'test/e2e/doc-examples.test.ts', // 14.8
  'test/e2e/isolated.test.ts', // 13.8
  'test/e2e/cli.test.ts', // 11.4
  'test/api/control/scenarios.test.ts', // 9.9 before scenarios.switching.test.ts was split off
  'test/api/http/security.test.ts', // 9.7 before security.paths and security.secrets were split off
  'test/e2e/vitest-setup.test.ts', // 8.7
  'test/e2e/crash-safety.test.ts', // 8.5
  'test/api/control/scenarios.switching.test.ts', // 6.2 (the two files alone, on a loaded machine)
  'test/api/dashboard/dashboard.events.test.ts', // 4.5 (the two files alone, on a loaded machine), of dashboard.test.ts's 8.5 before
  'test/fuzz/routes.fuzz.test.ts', // 8.3
  'test/e2e/languages.test.ts', // 7.9 (one machine, 2 cores: java and go compile)
  'test/e2e/state-kept.test.ts', // 5.8
];

/** Vitest's own order (by the last run's durations where it has them), the longest files known here first. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(
        relative(spec.project.config.root, spec.moduleId).replaceAll('\\', '/'),
      );
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // Stable: among the files not listed, vitest's order stays. Across projects too: most of the longest files are
    // end-to-end ones, in a project of their own, and they must not wait for the others.
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
