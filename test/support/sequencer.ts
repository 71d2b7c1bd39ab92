import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (their seconds are in docs/performance.md, "The test suite"). They
 * start first: vitest orders files by the durations of the last run it remembers, and a clean clone (CI) has none,
 * so it ran them in the order it found them, and the browser test, started late, made the run's last seconds
 * alone. A file missing here only starts later; a name here that is no file is ignored.
 */
const LONGEST_FIRST = [
  'test/e2e/browser.test.ts',
  'test/e2e/doc-examples.test.ts',
  'test/e2e/python-kit.test.ts',
  'test/e2e/state-lock.test.ts',
  'test/e2e/isolated.test.ts',
  'test/e2e/cli.test.ts',
  'test/fuzz/routes.fuzz.test.ts',
  'test/api/docs/answer-examples.test.ts',
  'test/e2e/vitest-setup.test.ts',
  'test/e2e/crash-safety.test.ts',
  'test/api/docs/examples-replay.test.ts',
  'test/api/docs/openapi-lint.test.ts',
  'test/e2e/state-kept.test.ts',
  'test/e2e/languages.test.ts',
  'test/api/control/scenarios.test.ts',
  'test/api/v1/bulk.test.ts',
  'test/e2e/disk-full.test.ts',
  'test/e2e/state-import.test.ts',
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
