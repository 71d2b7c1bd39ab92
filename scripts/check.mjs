// `npm test`: the type check, the lint, the layering rules and the tests at once. The tests use both cores of a
// small machine only part of the time (they wait on child processes, a browser, the network), and the other steps
// fill those gaps: they run at a lower priority, so they take the cores the tests leave idle rather than slow the
// tests down. The tests print as they run; the other steps' output is printed whole after them. A failure of any
// step fails the run. `--no-tests` runs all but the tests; other arguments go to vitest.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const bin = (pkg, file) => join(dirname(require.resolve(`${pkg}/package.json`)), file);

/** A niceness above the default: the step runs when the cores have nothing more urgent. */
const BACKGROUND = 10;

/**
 * Runs a step; its output is kept to print later, at a lower priority, or goes straight through at the normal
 * priority (`live`: the tests).
 */
const run = (name, args, live = false) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
    });
    if (!live && child.pid !== undefined) {
      try {
        setPriority(child.pid, BACKGROUND);
      } catch {
        // A system that does not let a process lower its child's priority runs the step as it is.
      }
    }
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ name, code: code ?? 1, out }));
  });

const steps = [
  // Incremental: what the last check found is kept in node_modules/.cache, and only the files changed since (and
  // those that import them) are checked again.
  run('typecheck', [
    bin('typescript', 'bin/tsc'),
    '-p',
    'tsconfig.json',
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    'node_modules/.cache/typecheck/tsconfig.tsbuildinfo',
  ]),
  run('lint', [bin('@biomejs/biome', 'bin/biome'), 'check', '--error-on-warnings', 'src', 'test', 'scripts']),
  // dependency-cruiser over src/ with the house's rules (tools/house-layers.cjs).
  run('layers', ['scripts/layers.mjs']),
];
// For example `npm test -- --reporter=json …`, as .ci/run gives.
const args = process.argv.slice(2);
if (!args.includes('--no-tests'))
  steps.push(run('tests', [bin('vitest', 'vitest.mjs'), 'run', ...args], true));
const results = await Promise.all(steps);
for (const { name, code, out } of results) {
  if (name === 'tests') continue;
  process.stdout.write(`> ${name}${code === 0 ? '' : ` failed (exit ${code})`}\n${out}`);
}
const failed = results.filter((r) => r.code !== 0).map((r) => r.name);
if (failed.length > 0) process.stdout.write(`\nnpm test failed: ${failed.join(', ')}\n`);
process.exit(failed.length > 0 ? 1 : 0);
