// The README's TypeScript examples of the handle, run exactly as printed against the built package: each block
// that imports 'banking-sandbox' (and is not vitest configuration) is compiled as it stands, run by node in a
// directory where 'banking-sandbox' resolves to this package (its "exports", so dist/), and must exit 0 printing
// what its `// prints: …` comments say. The README cannot drift from the package.
//
// Both examples call `verify()`, which needs the journal's routes (`POST /__sandbox/requests/verify`).

import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox.js';
import { runNode } from '../support/process.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The README's ```ts blocks that use the package, in order. */
async function examples(): Promise<string[]> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  return blocks.filter((code) => code.includes("from 'banking-sandbox'") && !code.includes('vitest'));
}

/** What the block says it prints, line by line. */
function promised(code: string): string[] {
  return [...code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => (m[1] ?? '').trim());
}

let dir: string;
let running: RunningSandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'readme-examples-'));
  await mkdir(join(dir, 'node_modules'));
  // As installed: the package by its name, resolved through its package.json.
  await symlink(ROOT, join(dir, 'node_modules', 'banking-sandbox'), 'dir');
  // The sandbox the "another process" example connects to.
  running = await startSandbox();
});
afterAll(async () => {
  await running?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('the README has the examples of the handle: startSandbox() and connectSandbox()', async () => {
  const found = await examples();
  expect(found.some((code) => code.includes('await startSandbox()'))).toBe(true);
  expect(found.some((code) => code.includes('connectSandbox('))).toBe(true);
  expect(found.some((code) => code.includes('me.virtualAccount.accountNumber'))).toBe(true);
});

it('each runs as printed and prints what it says', async () => {
  const found = await examples();
  const results = await Promise.all(
    found.map(async (source, i) => {
      const { code: js } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20' });
      const file = join(dir, `example-${i}.mjs`);
      await writeFile(file, js);
      return {
        source,
        ...(await runNode([file], { env: { SANDBOX_URL: running.url, SANDBOX_CONTROL_TOKEN: '' } })),
      };
    }),
  );
  for (const r of results) {
    // Node prints the bundled line that threw: the end of the output holds the error itself.
    expect({ exit: r.code, stderr: r.stderr.slice(-800) }, r.source).toEqual({ exit: 0, stderr: '' });
    expect(r.stdout.trimEnd().split('\n'), r.source).toEqual(promised(r.source));
  }
});
