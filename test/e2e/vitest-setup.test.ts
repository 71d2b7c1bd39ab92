// docs/testing.md's vitest setup, run as printed: its three files (the config, the global setup that starts one
// sandbox for the run, and a test file that takes a client of its own through `inject`) are written to a project
// where 'banking-sandbox' resolves to this package (dist/) and run by vitest in a process of its own. The test file
// gets a check added at its end, since vitest fails a file that holds no test.

import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { codeBlocks, ROOT, runBy } from '../support/docs.js';
import { runNode } from '../support/process.js';
import { scratchProject } from '../support/project.js';

const PAGE = 'docs/testing.md';
const THIS = 'test/e2e/vitest-setup.test.ts';

/** The page's blocks this test runs, by the file name on their second line (`// vitest.config.ts`). */
async function files(): Promise<Map<string, string>> {
  const blocks = codeBlocks(PAGE, await readFile(join(ROOT, PAGE), 'utf8')).filter((b) => runBy(b) === THIS);
  return new Map(
    blocks.map((b) => {
      const [, second = '', ...rest] = b.code.split('\n');
      return [second.replace(/^\/\/ /, '').trim(), rest.join('\n')];
    }),
  );
}

/**
 * What the test file gets at its end: one test over what the example made. The file runs twice, as two files in
 * parallel: each sees the fixtures' two clients and its own, never the other's, and its own scenario.
 */
const CHECK = `
import { expect as expectOf, it as check } from 'vitest';
check('the file has an isolated sandbox of its own, and a client in it, signed in', async () => {
  expectOf(me.clientId).toMatch(/./);
  expectOf(headers.authorization).toMatch(/^Bearer /);
  expectOf(process.env.BANK_BASE_URL).toMatch(/\\/sandboxes\\/s-[0-9a-f]{10}\\/api\\/v1$/);
  expectOf((await sandbox.credentials()).map((c) => c.clientId)).toHaveLength(3);
  const active = await fetch(\`\${sandbox.url}/__sandbox/scenario\`).then((r) => r.json());
  expectOf(active.data.name).toBe('flaky-bank');
});
`;

let dir: string;

beforeAll(async () => {
  dir = await scratchProject('vitest-setup', ['vitest']);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('the page has the three files: the config, the global setup and a test file', async () => {
  expect([...(await files()).keys()].sort()).toEqual([
    'payments.test.ts',
    'vitest.config.ts',
    'vitest.global-setup.ts',
  ]);
});

it('runs as printed: one sandbox for the run, an isolated sandbox per test file', async () => {
  for (const [name, code] of await files()) {
    if (!name.endsWith('.test.ts')) await writeFile(join(dir, name), code);
    else
      for (const copy of [name, name.replace('.test.ts', '-again.test.ts')])
        await writeFile(join(dir, copy), code + CHECK);
  }
  // Without the outer vitest's own variables (an undefined one is left out of the child's environment): they would
  // make the inner one think it runs in a worker.
  const outer = Object.fromEntries(
    Object.keys(process.env).flatMap((k) => (k.startsWith('VITEST') ? [[k, undefined]] : [])),
  );
  const r = await runNode([join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir], {
    cwd: dir,
    env: outer,
  });
  expect({ exit: r.code, out: r.stdout.slice(-1500) + r.stderr.slice(-1500) }).toMatchObject({ exit: 0 });
  // Two files, each with its test: both passed (the output is coloured).
  expect(stripVTControlCharacters(r.stdout)).toMatch(/Test Files +2 passed/);
  // A vitest of its own starts, transforms and runs: seconds, more on a busy machine.
}, 90_000);
