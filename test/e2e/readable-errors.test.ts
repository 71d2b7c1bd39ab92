// What a newcomer sees when the package throws and nothing catches it: Node prints the line of the built file that
// threw, then the stack. A bundle minified onto one line made that first line the whole chunk (about 20 KB) before
// the one useful line; scripts/build.mjs keeps lines short and names as written. Each case runs as a user's ES
// module does, by node in a scratch project where 'banking-sandbox' resolves to this package (its "exports", so
// dist/), and must print a few short lines that name the error, its cause and the function it came from.

import { rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runNode } from '../support/process.js';
import { scratchProject } from '../support/project.js';

const _ROOT = join(import.meta.dirname, '..', '..');

let dir: string;

beforeAll(async () => {
  dir = await scratchProject('readable-errors');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A port nothing listens on: one the system handed out and that was closed again. Not port 1, which other tests of
 * an unreachable sandbox use: fetch refuses it as a bad port before connecting, and the cause would not be
 * ECONNREFUSED.
 */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs `source` as an ES module of the scratch project: its exit code and all it printed, both streams. */
async function uncaught(name: string, source: string, env: NodeJS.ProcessEnv = {}) {
  const file = join(dir, `${name}.mjs`);
  await writeFile(file, source);
  const { code, stdout, stderr } = await runNode([file], { cwd: dir, env });
  return { code, output: stdout + stderr };
}

/** The longest line of `text`, by length. */
const longestLine = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

it('connectSandbox() with no sandbox running: a short stack naming SandboxUnreachableError and ECONNREFUSED', async () => {
  // The README's example of the handle from another process, up to its first call.
  const { code, output } = await uncaught(
    'connect',
    `import { connectSandbox } from 'banking-sandbox';

const sandbox = connectSandbox(process.env.SANDBOX_URL ?? 'http://localhost:4010', {
  controlToken: process.env.SANDBOX_CONTROL_TOKEN,
});
const me = await sandbox.newClient();
console.log(me.clientId);
`,
    { SANDBOX_URL: `http://127.0.0.1:${await closedPort()}`, SANDBOX_CONTROL_TOKEN: '' },
  );
  expect(code, output).toBe(1);
  expect(output).toMatch(
    /SandboxUnreachableError: cannot reach the sandbox at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
  );
  expect(output.length, output).toBeLessThan(2048);
  expect(longestLine(output), output).toBeLessThanOrEqual(400);
});

it('startSandbox() with a bad option: a short stack naming ConfigError and the functions it passed through', async () => {
  const { code, output } = await uncaught(
    'config',
    `import { startSandbox } from 'banking-sandbox';

const sandbox = await startSandbox({ inMemory: true, port: -1 });
await sandbox.close();
`,
  );
  expect(code, output).toBe(1);
  expect(output).toMatch(/ConfigError: invalid option port: /);
  // Names as written, not as a minifier shortens them: the stack reads as our source does.
  expect(output).toMatch(/\n {4}at startSandbox \(/);
  expect(output.length, output).toBeLessThan(2048);
  expect(longestLine(output), output).toBeLessThanOrEqual(400);
});
