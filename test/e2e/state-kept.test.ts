// A restart on a state file that exists keeps that state: a --seed or --fixtures given then does not make it. The
// real CLI says so at start-up, in one log line, of what the flags and variables asked for and never of a default.
// The files it makes there are its owner's only.

import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, type TestContext } from 'vitest';
import { embeddedFixturesDir } from '../../src/store/fixtures.js';
import { http, type SandboxProcess, startProcess, stop } from '../support/process.js';

/** A folder of the test's own, and a `start` on its state file whose process is stopped when the test ends. */
async function opened({ onTestFinished }: TestContext) {
  const dir = await mkdtemp(join(tmpdir(), 'state-kept-'));
  const data = join(dir, 'db.json');
  const running: SandboxProcess[] = [];
  onTestFinished(async () => {
    for (const p of running)
      if (p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  /** Starts on the state file (or `file`) and stops again: the log lines it printed up to its banner. */
  const startAndStop = async (args: string[], env: NodeJS.ProcessEnv = {}, file = data) => {
    const p = await startProcess(['--data', file, ...args], { env });
    running.push(p);
    // The line is written while the sandbox is assembled, before the banner that startProcess waits for.
    const out = p.stdout();
    await stop(p);
    return out.split('\n');
  };
  return { dir, data, startAndStop };
}

const notices = (lines: string[]) => lines.filter((line) => line.includes('sandbox.state_kept'));

it("a --seed other than the state file's is named once, with what is kept, what applies and how to start afresh", async (context) => {
  const { data, startAndStop } = await opened(context);
  // The state is made now, from the seed given: nothing to say.
  expect(notices(await startAndStop(['--seed', '42']))).toEqual([]);

  const lines = notices(await startAndStop(['--seed', '7']));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} warn {3}sandbox\.state_kept /);
  expect(lines[0]?.replace(/^\S+ warn {3}sandbox\.state_kept /, '')).toBe(
    `--seed 7 not applied to the state: the state file ${data} already exists and keeps its own seed 42 (for its ` +
      'records and new identifiers); scenario draws use seed 7. To start afresh, POST /__sandbox/reset rebuilds ' +
      `it with seed 7, or stop the sandbox and delete ${data} and ${data}.wal`,
  );
});

it("no line when no seed is given, nor when the seed given is the state file's own", async (context) => {
  const { dir, startAndStop } = await opened(context);
  // Each on a state file of its own, side by side: a start is most of the time.
  const [notGiven, same] = await Promise.all([
    // Not given: the default seed (1) differs from the state's 42, but nobody asked for it.
    (async () => {
      const file = join(dir, 'not-given.json');
      await startAndStop(['--seed', '42'], {}, file);
      return startAndStop([], {}, file);
    })(),
    // Given, by its variable, and the state's own: nothing is lost.
    (async () => {
      const file = join(dir, 'same.json');
      await startAndStop([], { SANDBOX_SEED: '42' }, file);
      return startAndStop([], { SANDBOX_SEED: '42' }, file);
    })(),
  ]);
  expect(notices(notGiven)).toEqual([]);
  expect(notices(same)).toEqual([]);
});

it('SANDBOX_FIXTURES on a kept state is named with its fields in the JSON log, at every start it is given', async (context) => {
  const { data, startAndStop } = await opened(context);
  expect(notices(await startAndStop(['--fixtures', embeddedFixturesDir]))).toEqual([]);
  const lines = notices(
    await startAndStop(['--log-format', 'json'], { SANDBOX_FIXTURES: embeddedFixturesDir }),
  );
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? '')).toEqual({
    time: expect.any(String),
    level: 'warn',
    event: 'sandbox.state_kept',
    file: data,
    stateSeed: 1,
    seed: null,
    fixtures: embeddedFixturesDir,
    message:
      `--fixtures ${embeddedFixturesDir} not applied to the state: the state file ${data} already exists and keeps ` +
      `its clients and roles; the banks, billers, BVN register, fees and states of ${embeddedFixturesDir} apply. To start ` +
      `afresh, POST /__sandbox/reset rebuilds it from ${embeddedFixturesDir}, or stop the sandbox and delete ` +
      `${data} and ${data}.wal`,
  });
});

it('the state file, its journal and its lock are made readable by their owner only (0600)', async (context) => {
  const { data } = await opened(context);
  const p = await startProcess(['--data', data]);
  try {
    expect((await http(p, 'POST', '/__sandbox/clients', { body: { name: 'Modes' } })).status).toBe(201);
    const modes = await Promise.all(
      [data, `${data}.wal`, `${data}.lock`].map(async (f) => (await stat(f)).mode & 0o777),
    );
    expect(modes).toEqual([0o600, 0o600, 0o600]);
  } finally {
    await stop(p);
  }
});
