// The Python package (clients/python) as a Python suite meets it: installed from the source tree without a network,
// its pytest plugin loaded through its entry point, its own tests run at `-n 4` (pytest-xdist) against the built
// sandbox as a real process. Debian's python3-pytest and python3-pytest-xdist are what CI installs; where they are
// missing the tests are skipped, saying what to install.

import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../support/docs.js';
import { run, type SandboxProcess, startProcess, stop } from '../support/process.js';

// Debian's, by its path: a pyenv or a venv earlier on PATH may have neither pytest nor xdist.
const PYTHON = process.env.SANDBOX_PYTHON ?? '/usr/bin/python3';
const KIT = join(ROOT, 'clients', 'python');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

async function pythonMissing(): Promise<string | undefined> {
  const why = `the Python kit's tests need ${PYTHON} with pytest and pytest-xdist (Debian: apt-get install python3-pytest python3-pytest-xdist python3-setuptools python3-wheel; or set SANDBOX_PYTHON)`;
  if (!existsSync(PYTHON)) return `skipped: ${PYTHON} is missing; ${why}`;
  const r = await run(PYTHON, ['-c', 'import pytest, xdist, setuptools, pip']);
  return r.code === 0 ? undefined : `skipped: ${r.stderr.trim().split('\n').at(-1)}; ${why}`;
}

const missing = await pythonMissing();
// The default reporter shows a skipped test as a count only: this line says why, as the test's note does.
if (missing) console.warn(missing);

let sandbox: SandboxProcess | undefined;
let dir: string | undefined;
/** Where the package is installed (`pip install --target`), put on PYTHONPATH: entry points included. */
let site = '';

/** Runs Debian's python with the installed package, against the sandbox, writing no bytecode into the tree. */
function python(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return run(PYTHON, args, {
    cwd: options.cwd,
    env: {
      PYTHONPATH: site,
      PYTHONDONTWRITEBYTECODE: '1',
      BANKING_SANDBOX_URL: sandbox?.url ?? '',
      ...options.env,
    },
  });
}

beforeAll(async () => {
  if (missing) return;
  dir = await mkdtemp(join(tmpdir(), 'python-kit-'));
  sandbox = await startProcess(['--in-memory', '--max-sandboxes', '200']);
}, 30_000);

afterAll(async () => {
  if (sandbox) await stop(sandbox);
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('installs from the source tree without a network, with its pytest plugin as an entry point', async (context) => {
  if (missing || !dir) return context.skip(missing);
  // A copy: pip builds in the folder it is given and would leave build/ and *.egg-info in the checkout.
  const source = join(dir, 'source');
  await cp(KIT, source, { recursive: true, filter: (p) => !/__pycache__|\.egg-info|\/build$/.test(p) });
  site = join(dir, 'site');
  const args = ['-m', 'pip', 'install', '--quiet', '--no-index', '--no-build-isolation', '--no-deps'];
  const r = await run(PYTHON, [...args, '--target', site, source], { env: { PIP_NO_CACHE_DIR: '1' } });
  expect({ code: r.code, stderr: r.stderr.replace(/^WARNING: Running pip as the 'root'.*\n?/m, '') }).toEqual(
    {
      code: 0,
      stderr: '',
    },
  );
  const installed = await python([
    '-c',
    'import importlib.metadata as m; print(m.version("banking-sandbox"), [e.value for e in m.entry_points(group="pytest11") if e.name == "banking_sandbox"])',
  ]);
  // The version is package.json's: one release, one number, whichever registry a user installs from.
  expect(installed.stdout.trim()).toBe(`${version} ['banking_sandbox.plugin']`);
}, 60_000);

it("passes its own tests at -n 4 against the sandbox's process", async (context) => {
  if (missing || !site) return context.skip(missing);
  const r = await python(['-m', 'pytest', '-n', '4', '-q', '-p', 'no:cacheprovider', 'tests'], { cwd: KIT });
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(r.stdout).toMatch(/\d+ passed/);
}, 120_000);
