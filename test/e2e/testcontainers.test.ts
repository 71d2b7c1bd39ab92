// docs/testcontainers.md's recipe, run as printed: the block whose first line is MARKER is compiled as it stands and
// run by node where 'banking-sandbox' resolves to this package (dist/) and 'testcontainers' to this repository's
// devDependency, against an image built from the Dockerfile here (or the one SANDBOX_IMAGE names). It must exit 0
// printing what its `// prints: …` comments say. That needs a container engine: where none answers (CI here has
// none) the run is skipped, saying which places were looked at.

import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { runNode } from '../support/process.js';
import { scratchProject } from '../support/project.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = join(ROOT, 'docs', 'testcontainers.md');
/** The first line of the block this file runs; the generic runner of the docs' examples leaves such a block alone. */
const MARKER = '// example: run by test/e2e/testcontainers.test.ts';
/** The tag the image is built under here, kept between runs so that a rebuild reuses its layers. */
const TAG = 'banking-sandbox:testcontainers-test';

/** docs/testcontainers.md's ```ts blocks that carry the marker. */
async function recipes(): Promise<string[]> {
  const doc = await readFile(DOC, 'utf8');
  const blocks = [...doc.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  return blocks.filter((code) => code.startsWith(`${MARKER}\n`));
}

/** What the block says it prints, line by line. */
function promised(code: string): string[] {
  return [...code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => (m[1] ?? '').trim());
}

interface Place {
  /** Where, in words: the variable or the path. */
  label: string;
  /** DOCKER_HOST's form: `unix:///path` or `tcp://host:port`. */
  dockerHost: string;
}

/**
 * Where a Docker-compatible engine is looked for, in the order Testcontainers itself looks (DOCKER_HOST, then
 * Docker's socket), then Podman's sockets, which Testcontainers does not look for: rootless, then root.
 */
function places(): Place[] {
  const found: Place[] = [];
  const { DOCKER_HOST, XDG_RUNTIME_DIR } = process.env;
  if (DOCKER_HOST) found.push({ label: `DOCKER_HOST=${DOCKER_HOST}`, dockerHost: DOCKER_HOST });
  const sockets = ['/var/run/docker.sock'];
  if (XDG_RUNTIME_DIR) sockets.push(join(XDG_RUNTIME_DIR, 'podman', 'podman.sock'));
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0) sockets.push(`/run/user/${uid}/podman/podman.sock`);
  sockets.push('/run/podman/podman.sock');
  for (const path of new Set(sockets)) found.push({ label: path, dockerHost: `unix://${path}` });
  return found;
}

/** Whether an engine answers the Docker API's ping at `place`, within two seconds. */
function answers(place: Place): Promise<boolean> {
  const url = new URL(place.dockerHost);
  if (url.protocol === 'unix:' && !existsSync(url.pathname)) return Promise.resolve(false);
  const target =
    url.protocol === 'unix:'
      ? { socketPath: url.pathname, path: '/_ping' }
      : { host: url.hostname, port: Number(url.port || 2375), path: '/_ping' };
  return new Promise((resolve) => {
    const req = request({ ...target, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** The first place where an engine answers, or why the recipe cannot run here. */
async function findEngine(): Promise<{ dockerHost: string } | { missing: string }> {
  const looked = places();
  for (const place of looked) if (await answers(place)) return { dockerHost: place.dockerHost };
  const labels = looked.map((p) => p.label);
  if (!process.env.DOCKER_HOST) labels.unshift('DOCKER_HOST (unset)');
  return {
    missing:
      `No container engine answered at ${labels.join(', ')}: the Testcontainers recipe of ` +
      "docs/testcontainers.md is not run. Start Docker, or Podman's socket " +
      '(`podman system service --time=0 unix:///tmp/podman.sock &` and DOCKER_HOST=unix:///tmp/podman.sock).',
  };
}

const engine = await findEngine();
// The default reporter shows a skipped test as a count only: this line says why, as the test's note does.
if ('missing' in engine) console.warn(engine.missing);

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('docs/testcontainers.md has the recipe, marked as run here: testcontainers, a wait on the health route, connectSandbox', async () => {
  const [recipe, ...others] = await recipes();
  expect(others).toEqual([]);
  expect(recipe).toContain("from 'testcontainers'");
  expect(recipe).toContain("import { connectSandbox } from 'banking-sandbox'");
  // Not the image's HEALTHCHECK, which Podman never runs.
  expect(recipe).toContain("Wait.forHttp('/__sandbox/health', 4010)");
  expect(recipe).not.toContain('withWaitStrategy(Wait.forHealthCheck');
  expect(promised(recipe ?? '').length).toBeGreaterThan(0);
});

it('runs the recipe as printed against the image of the Dockerfile, and it prints what it says', async (context) => {
  if ('missing' in engine) return context.skip(engine.missing);
  const env = {
    DOCKER_HOST: engine.dockerHost,
    // Ryuk, the reaper of what a killed run leaves, is an image pulled from a registry and does not run under
    // rootless Podman; the recipe stops its container itself.
    TESTCONTAINERS_RYUK_DISABLED: process.env.TESTCONTAINERS_RYUK_DISABLED ?? 'true',
  };
  let image = process.env.SANDBOX_IMAGE;
  if (!image) {
    // As the recipe's reader would, with Testcontainers: the build reuses the layers of the last one.
    const built = await runNode(
      [
        '--input-type=module',
        '-e',
        "import { GenericContainer } from 'testcontainers';\n" +
          'await GenericContainer.fromDockerfile(process.argv[1]).build(process.argv[2], { deleteOnExit: false });',
        ROOT,
        TAG,
      ],
      { cwd: ROOT, env },
    );
    expect({ exit: built.code, stderr: built.stderr.slice(-2000) }).toEqual({ exit: 0, stderr: '' });
    image = TAG;
  }

  const [recipe = ''] = await recipes();
  dir = await scratchProject('testcontainers-recipe', ['testcontainers']);
  const { code: js } = await transform(recipe, { loader: 'ts', format: 'esm', target: 'node20' });
  const file = join(dir, 'recipe.mjs');
  await writeFile(file, js);
  const run = await runNode([file], { cwd: dir, env: { ...env, SANDBOX_IMAGE: image } });
  expect({ exit: run.code, stderr: run.stderr.slice(-2000) }, recipe).toEqual({ exit: 0, stderr: '' });
  expect(run.stdout.trimEnd().split('\n'), recipe).toEqual(promised(recipe));
}, 600_000);
