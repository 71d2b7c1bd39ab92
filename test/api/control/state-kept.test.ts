// A start on a state file that exists keeps that state, and a seed or fixtures folder given in code does not make
// it: the sandbox says so in one log line. What the line says is checked here against what the sandbox then does:
// the state's seed and clients are kept, the scenarios draw from the given seed, the given folder's banks apply,
// and a reset rebuilds the state from the given folder and seed.

import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox.js';
import { embeddedFixturesDir } from '../../../src/store/fixtures.js';
import { A, call } from '../../support/sandbox.js';

let dir: string;
let data: string;
let fixtures: string;
const open: Sandbox[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-kept-'));
  data = join(dir, 'db.json');
  // The embedded fixtures, but for client A's name and one more bank: which of the two a state shows tells where
  // it came from.
  fixtures = join(dir, 'fixtures');
  await cp(embeddedFixturesDir, fixtures, { recursive: true });
  const clients = JSON.parse(await readFile(join(fixtures, 'clients.json'), 'utf8')) as { name: string }[];
  await writeFile(
    join(fixtures, 'clients.json'),
    JSON.stringify(clients.map((c, i) => (i === 0 ? { ...c, name: 'Renamed Ltd' } : c))),
  );
  const banks = JSON.parse(await readFile(join(fixtures, 'banks.json'), 'utf8')) as {
    banks: { code: string; name: string }[];
  };
  banks.banks.push({ code: '999', name: 'Test Bank of the Given Fixtures' });
  await writeFile(join(fixtures, 'banks.json'), JSON.stringify(banks));
});
afterEach(async () => {
  for (const sandbox of open.splice(0)) await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** A sandbox on the test's state file, and the lines it logged while it started. */
async function started(options: SandboxOptions): Promise<{ sandbox: Sandbox; lines: string[] }> {
  const lines: string[] = [];
  const sandbox = await createSandbox({
    data,
    logFormat: 'json',
    log: (line) => lines.push(line),
    ...options,
  });
  open.push(sandbox);
  return { sandbox, lines };
}

/** Starts, and closes again (the state file stays). */
async function startAndClose(options: SandboxOptions): Promise<string[]> {
  const { sandbox, lines } = await started(options);
  await sandbox.close();
  open.splice(open.indexOf(sandbox), 1);
  return lines;
}

const kept = (lines: string[]) =>
  lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((e) => e.event === 'sandbox.state_kept');

const clientAName = (sandbox: Sandbox) => sandbox.store.get('clients', A.id)?.name;

it('a seed and a fixtures folder given in code to a kept state: one line, and it says what then holds', async () => {
  expect(kept(await startAndClose({ seed: 42 }))).toEqual([]);

  const { sandbox, lines } = await started({ seed: 7, fixtures });
  expect(kept(lines)).toEqual([
    expect.objectContaining({
      level: 'warn',
      file: data,
      stateSeed: 42,
      seed: 7,
      fixtures,
      message:
        `--fixtures ${fixtures} and --seed 7 not applied to the state: the state file ${data} already exists and ` +
        `keeps its clients and roles and its own seed 42 (for its records and new identifiers); the banks, ` +
        `billers, BVN register, fees and states of ${fixtures} apply; scenario draws use seed 7. To start afresh, POST ` +
        `/__sandbox/reset rebuilds it from ${fixtures} with seed 7, or stop the sandbox and delete ${data} and ` +
        `${data}.wal`,
    }),
  ]);
  // Kept: the state's seed and its clients.
  expect(sandbox.store.meta().seed).toBe(42);
  expect(clientAName(sandbox)).toBe('Adebayo Ventures Ltd');
  // Applied: the scenarios' seed and the folder's banks.
  const scenario = await call(sandbox, 'GET', '/__sandbox/scenario');
  expect((scenario.body.data as { seed: number }).seed).toBe(7);
  expect(sandbox.fixtures.banks.banks.map((b) => b.code)).toContain('999');
  // A reset rebuilds the state from the given folder and seed.
  expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
  expect(sandbox.store.meta().seed).toBe(7);
  expect(clientAName(sandbox)).toBe('Renamed Ltd');
});

it("no line when neither is given, when the seed given is the state's own, or when the state is made now", async () => {
  // Made now, from what was given.
  expect(kept(await startAndClose({ seed: 42, fixtures }))).toEqual([]);
  // Not given: the default seed (1) is not something anyone asked for.
  expect(kept(await startAndClose({}))).toEqual([]);
  expect(kept(await startAndClose({ seed: 42 }))).toEqual([]);
  // In memory, the state is always made now.
  expect(kept(await startAndClose({ data: undefined, inMemory: true, seed: 7, fixtures }))).toEqual([]);
});
