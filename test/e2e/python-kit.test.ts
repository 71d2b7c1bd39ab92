// The Python package (clients/python) as a Python suite meets it, and docs/python.md's project as printed: installed from the source tree without a network,
// its pytest plugin loaded through its entry point, its own tests run at `-n 4` (pytest-xdist) against the built
// sandbox as a real process. Debian's python3-pytest and python3-pytest-xdist are what CI installs; where they are
// missing the tests are skipped, saying what to install.

import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, codeBlocks, ROOT } from '../support/docs.js';
import { run, type SandboxProcess, startProcess, stop } from '../support/process.js';

// Debian's, by its path: a pyenv or a venv earlier on PATH may have neither pytest nor xdist.
const PYTHON = process.env.SANDBOX_PYTHON ?? '/usr/bin/python3';
const KIT = join(ROOT, 'clients', 'python');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

async function pythonMissing(): Promise<string | undefined> {
  const why = `the Python kit's tests need ${PYTHON} with pytest and pytest-xdist (Debian: apt-get install python3-pytest python3-pytest-xdist python3-pip; or set SANDBOX_PYTHON)`;
  if (!existsSync(PYTHON)) return `skipped: ${PYTHON} is missing; ${why}`;
  const r = await run(PYTHON, ['-c', 'import pytest, xdist, pip']);
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
});

afterAll(async () => {
  if (sandbox) await stop(sandbox);
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('installs from the source tree without a network, with its pytest plugin as an entry point', async (context) => {
  if (missing || !dir) return context.skip(missing);
  // A copy, so that nothing pip does touches the checkout. Built in pip's own isolated environment, into which its
  // backend needs nothing installed: no index is reachable, as on a machine without a network.
  const source = join(dir, 'source');
  await cp(KIT, source, { recursive: true, filter: (p) => !/__pycache__|\.egg-info|\/build$/.test(p) });
  site = join(dir, 'site');
  const args = ['-m', 'pip', 'install', '--quiet', '--no-index', '--no-deps'];
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
});

it("passes its own tests at -n 4 against the sandbox's process", async (context) => {
  if (missing || !site) return context.skip(missing);
  const r = await python(['-m', 'pytest', '-n', '4', '-q', '-p', 'no:cacheprovider', 'tests'], { cwd: KIT });
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(r.stdout).toMatch(/\d+ passed/);
}, 120_000);

// docs/python.md: its ```python and ```ini blocks are one project, each block's first line a comment naming its
// file (`# tests/test_payments.py`); a block fenced `no-run` is shown only.
const PAGE = 'docs/python.md';
const pageBlocks = codeBlocks(PAGE, readFileSync(join(ROOT, PAGE), 'utf8')).filter(
  (b) => b.lang === 'python' || b.lang === 'ini',
);
const projectBlocks = pageBlocks.filter((b) => !b.flags.includes('no-run'));
const fileOf = (b: CodeBlock) => /^# ([\w./-]+)$/.exec(b.code.split('\n')[0] ?? '')?.[1];
const ENGINE = process.env.CONTAINER_ENGINE ?? 'docker';
/** The tag test/e2e/testcontainers.test.ts builds too: one image, its layers reused. */
const TAG = 'banking-sandbox:testcontainers-test';

/** Writes the page's project into a folder of its own; answers the folder and how many tests it holds. */
async function writeProject(): Promise<{ project: string; tests: number }> {
  const project = join(dir ?? '', 'doc-project');
  for (const b of projectBlocks) {
    const file = join(project, fileOf(b) ?? 'unnamed');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, b.code);
  }
  const tests = projectBlocks.reduce((n, b) => n + (b.code.match(/^def test_/gm)?.length ?? 0), 0);
  return { project, tests };
}

describe(PAGE, () => {
  it('has its Python and its settings in blocks that each name their file, at -n 4', () => {
    expect(pageBlocks.filter((b) => fileOf(b) === undefined).map((b) => `${b.file}:${b.line}`)).toEqual([]);
    const files = projectBlocks.map(fileOf);
    expect(files).toEqual(expect.arrayContaining(['conftest.py', 'pytest.ini', 'tests/conftest.py']));
    expect(new Set(files).size).toBe(files.length);
    expect(projectBlocks.find((b) => fileOf(b) === 'pytest.ini')?.code).toContain('-n 4');
  });

  it("runs as printed against the sandbox's process, the URL given from outside", async (context) => {
    if (missing || !site) return context.skip(missing);
    const { project, tests } = await writeProject();
    const r = await python(['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: project });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain(`${tests} passed`);
  }, 120_000);

  it('runs as printed with no URL given: one container for every worker, started by its conftest', async (context) => {
    if (missing || !site) return context.skip(missing);
    const engine = await run(ENGINE, ['info']);
    if (engine.code !== 0) {
      const why = `skipped: \`${ENGINE} info\` failed (no container engine answers; CONTAINER_ENGINE picks another CLI)`;
      console.warn(why);
      return context.skip(why);
    }
    let image = process.env.SANDBOX_IMAGE;
    if (!image) {
      const built = await run(ENGINE, ['build', '-t', TAG, ROOT]);
      expect(built.code, built.stderr).toBe(0);
      image = TAG;
    }
    const { project, tests } = await writeProject();
    const r = await python(['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: project,
      env: { BANKING_SANDBOX_URL: '', SANDBOX_IMAGE: image, CONTAINER_ENGINE: ENGINE },
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain(`${tests} passed`);
  }, 300_000);
});
