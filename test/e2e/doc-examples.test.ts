// The documentation's examples, run exactly as printed against the built package, so that neither the README nor a
// page of docs/ can drift from what the sandbox does:
// - a ```ts or ```js block that imports 'banking-sandbox' is compiled as it stands and run by node in a directory
//   where 'banking-sandbox' resolves to this package (its "exports", so dist/); it must exit 0 printing what its
//   `// prints: …` comments say. A block whose first line is `// example: run by <test file>` is run by that test
//   instead (vitest configuration, say), and the file must exist.
// - a ```sh or ```bash block is run with `bash -e`, its `localhost:4010` turned into the URL of a sandbox started
//   for it; it must exit 0 printing what its `# prints: …` comments say, in order. Only blocks that call the
//   sandbox's HTTP API can run here: any other is fenced ```sh no-run, and an unfenced one that would reach for
//   docker, npm, npx, git or podman fails the test rather than run.
// Each block gets a sandbox of its own (fixtures as shipped), so one that sets a scenario or resets cannot disturb
// another; a block of code that starts its own (and never reads SANDBOX_URL) gets none.

import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox.js';
import { type CodeBlock, docBlocks, ROOT, runBy } from '../support/docs.js';
import { run, runNode } from '../support/process.js';
import { scratchProject } from '../support/project.js';

const blocks = await docBlocks();
const name = (b: CodeBlock) => `${b.file}:${b.line}`;
const marked = (b: CodeBlock) => b.flags.includes('no-run');

const usesPackage = (b: CodeBlock) =>
  (b.lang === 'ts' || b.lang === 'js') && /from 'banking-sandbox'|require\('banking-sandbox'\)/.test(b.code);
const packageBlocks = blocks.filter(usesPackage);
const runByOther = packageBlocks.filter((b) => runBy(b) !== undefined);
const runHere = packageBlocks.filter((b) => !marked(b) && runBy(b) === undefined);

const isShell = (b: CodeBlock) => b.lang === 'sh' || b.lang === 'bash';
const shellBlocks = blocks.filter(isShell);
const shellToRun = shellBlocks.filter((b) => !marked(b));

/** What a block says it prints, line by line: `// prints: …` in code, `# prints: …` in a shell block. */
function promised(b: CodeBlock): string[] {
  const comment = isShell(b) ? /# prints: (.*)$/gm : /\/\/ prints: (.*)$/gm;
  return [...b.code.matchAll(comment)].map((m) => (m[1] ?? '').trim());
}

/** Runs a shell script to its end with `bash -e`. */
const runBash = (script: string, env: NodeJS.ProcessEnv) => run('bash', ['-e', '-c', script], { env });

/** Whether a block of code reaches the sandbox started for it (through its URL); the others start their own. */
const usesGiven = (b: CodeBlock) => /SANDBOX_URL|SANDBOX_CONTROL_TOKEN|connectSandbox/.test(b.code);

/** Runs `use` with a sandbox of the block's own, closed afterwards; with none where `started` is false. */
async function withSandbox<T>(use: (url: string) => Promise<T>, started = true): Promise<T> {
  if (!started) return use('');
  // Its log is the block's business only: a failing webhook receiver is a warning an example may mean to cause.
  const sandbox = await startSandbox({ log: () => {} });
  try {
    return await use(sandbox.url);
  } finally {
    await sandbox.close();
  }
}

let dir: string;

beforeAll(async () => {
  dir = await scratchProject('doc-examples');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the examples of the handle', () => {
  it('are there: startSandbox() and connectSandbox(), in the README and in docs/', () => {
    const here = runHere.map((b) => b.code);
    expect(here.some((code) => code.includes('await startSandbox()'))).toBe(true);
    expect(here.some((code) => code.includes('connectSandbox('))).toBe(true);
    expect(here.some((code) => code.includes('me.virtualAccount.accountNumber'))).toBe(true);
    expect(runHere.some((b) => b.file === 'README.md')).toBe(true);
    expect(runHere.some((b) => b.file.startsWith('docs/'))).toBe(true);
  });

  it('name, when another test runs them, a test file that exists', () => {
    const missing = runByOther.filter((b) => !existsSync(join(ROOT, runBy(b) ?? ''))).map(name);
    expect(runByOther.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it.each(runHere.map((b) => [name(b), b] as const))(
    '%s runs as printed and prints what it says',
    async (_, b) => {
      const { code: js } = await transform(b.code, { loader: 'ts', format: 'esm', target: 'node20' });
      const file = join(dir, `${b.file.replace(/\W/g, '-')}-${b.line}.mjs`);
      await writeFile(file, js);
      const r = await withSandbox(
        (url) => runNode([file], { env: { SANDBOX_URL: url, SANDBOX_CONTROL_TOKEN: '' } }),
        usesGiven(b),
      );
      // Node prints the bundled line that threw: the end of the output holds the error itself.
      expect({ exit: r.code, stderr: r.stderr.slice(-800) }, b.code).toEqual({ exit: 0, stderr: '' });
      expect(r.stdout.trimEnd().split('\n').filter(Boolean), b.code).toEqual(promised(b));
    },
  );
});

describe('the shell examples', () => {
  it('are each run here or fenced `no-run`', () => {
    const unrunnable = shellToRun
      .filter(
        (b) =>
          !/(localhost|127\.0\.0\.1):4010/.test(b.code) || /\b(docker|podman|npm|npx|git)\b/.test(b.code),
      )
      .map(name);
    expect(unrunnable).toEqual([]);
    expect(shellToRun.some((b) => b.file === 'README.md')).toBe(true);
  });

  it.each(shellToRun.map((b) => [name(b), b] as const))(
    '%s runs against a sandbox and prints what it says',
    async (_, b) => {
      const r = await withSandbox((url) =>
        runBash(b.code.replace(/(https?:\/\/)?(localhost|127\.0\.0\.1):4010/g, url), {}),
      );
      expect({ exit: r.code, stderr: r.stderr }, b.code).toEqual({ exit: 0, stderr: '' });
      // Each promised line, in order, among the lines the block printed.
      let from = 0;
      const lines = r.stdout.split('\n');
      for (const line of promised(b)) {
        const at = lines.indexOf(line, from);
        expect(at, `${b.code}\nprinted:\n${r.stdout}`).toBeGreaterThanOrEqual(0);
        from = at + 1;
      }
    },
  );
});
