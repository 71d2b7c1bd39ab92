// The package as another project meets it: a scratch project whose node_modules/banking-sandbox links to this one
// (as `npm install <git url or tarball>` leaves it), loading the built dist/ through package.json "exports": with
// require() from a CommonJS file and with import from an ES module, each in a process of its own.

import { execFile } from 'node:child_process';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchProject } from '../support/project.js';

const run = promisify(execFile);
let project = '';

beforeAll(async () => {
  project = await scratchProject('sandbox-consumer');
  for (const file of ['consumer.cjs', 'consumer.mjs']) {
    await copyFile(join('test', 'package', file), join(project, file));
  }
});
afterAll(() => rm(project, { recursive: true, force: true }));

/** Runs a consumer file with node and reads the JSON line it prints. */
async function consume(file: string): Promise<Record<string, unknown>> {
  const { stdout, stderr } = await run(process.execPath, [file, project], { cwd: project });
  // Nothing on stderr, but the ExperimentalWarning Node 22.12 to 23.4 print for require() of an ES module.
  expect(stderr.replace(/^.*(ExperimentalWarning|--trace-warnings).*\n/gm, '')).toBe('');
  return JSON.parse(stdout);
}

const errorShape = (className: string, status: number) => ({
  className,
  name: className,
  status,
  isClass: true,
  isSandboxError: true,
  isError: true,
  stackNamesIt: true,
});

describe('the package from another project', () => {
  it('require() from a CommonJS file loads it, starts and closes a sandbox, and throws its own error classes', async () => {
    const report = await consume('consumer.cjs');
    expect(report).toMatchObject({
      health: 200,
      closed: true,
      refused: {
        name: 'ConfigError',
        status: 400,
        message: 'unknown option bulkItemDelayMs: did you mean bulkItemDelay?',
        isConfigError: true,
        isSandboxError: true,
      },
    });
    expect(report.exports).toEqual(expect.arrayContaining(['startSandbox', 'createSandbox', 'ConfigError']));
  });

  it('import from an ES module: every error class by its real name, with its status, through the minified build', async () => {
    const { health, errors } = (await consume('consumer.mjs')) as {
      health: number;
      errors: Record<string, Record<string, unknown>>;
    };
    expect(health).toBe(200);
    expect(errors.unknownOption).toMatchObject({
      ...errorShape('ConfigError', 400),
      message: 'unknown option bulkItemDelayMs: did you mean bulkItemDelay?',
    });
    expect(errors.badValue).toMatchObject(errorShape('ConfigError', 400));
    expect(errors.badValue?.message).toMatch(/^invalid option port: /);
    expect(errors.scenario).toMatchObject({
      ...errorShape('ScenarioError', 400),
      message: expect.stringMatching(/^no ready scenario named "no-such-scenario" \(ready: default, /),
    });
    expect(errors.fixture).toMatchObject(errorShape('FixtureError', 400));
    expect(errors.fixture?.message).toMatch(/^fixture .*none/);
    expect(errors.stateFile).toMatchObject(errorShape('StateFileError', 400));
    expect(errors.stateFile?.message).toMatch(/corrupt\.json: is not valid JSON/);
    expect(errors.stateFileInUse).toMatchObject({
      ...errorShape('StateFileInUseError', 409),
      pid: expect.any(Number),
    });
    expect(errors.stateFileInUse?.message).toMatch(
      /held\.json is in use by process \d+ \(lock .*held\.json\.lock\)$/,
    );
    expect(errors.drainTimeout).toMatchObject({
      ...errorShape('DrainTimeoutError', 408),
      waiting: { batchCount: 0, deliveryCount: 0 },
    });
    expect(errors.drainTimeout?.message).toMatch(/^The queues were still busy after 20 ms/);
    expect(errors.storeWrite).toMatchObject({ ...errorShape('StoreWriteError', 503), code: 'ENOSPC' });
  });

  it("runs the docs' ConfigError example as printed", async () => {
    const page = await readFile('docs/testing.md', 'utf8');
    const example =
      /```js\n\/\/ example: run by test\/e2e\/package\.test\.ts\n(\/\/ Plain JavaScript, where no type catches the misspelt option:\n[^`]*)```/.exec(
        page,
      )?.[1];
    expect(example).toBeDefined();
    await writeFile(join(project, 'readme-config-error.mjs'), example ?? '');
    const { stdout, stderr } = await run(process.execPath, ['readme-config-error.mjs'], { cwd: project });
    expect(stdout).toBe('');
    expect(stderr).toBe('400 unknown option bulkItemDelayMs: did you mean bulkItemDelay?\n');
  });
});
