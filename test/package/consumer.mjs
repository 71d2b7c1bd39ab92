// An ES module project's test file: it imports the package by name and meets each error class the package throws.
// Run by test/e2e/package.test.ts with a scratch folder as its argument.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ConfigError,
  createSandbox,
  DrainTimeoutError,
  FixtureError,
  resolveConfig,
  SandboxError,
  ScenarioError,
  StateFileError,
  StateFileInUseError,
  StoreWriteError,
  startSandbox,
} from 'banking-sandbox';

const scratch = process.argv[2];
const thrown = async (fn) => {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error(`${fn} did not throw`);
};
const describe = (error, cls) => ({
  className: cls.name,
  name: error.name,
  message: error.message,
  status: error.status,
  isClass: error instanceof cls,
  isSandboxError: error instanceof SandboxError,
  isError: error instanceof Error,
  stackNamesIt: String(error.stack).startsWith(`${cls.name}: `),
});

const sandbox = await startSandbox();
const health = (await fetch(`${sandbox.url}/__sandbox/health`)).status;
await sandbox.close();

const corrupt = join(scratch, 'corrupt.json');
await writeFile(corrupt, 'not json');
const waiting = {
  clock: { now: '2026-05-01T10:00:00.000Z', frozen: true, offsetMs: 0 },
  backlog: { bulkItems: 0, deliveries: 0 },
  batches: [],
  batchCount: 0,
  deliveries: [],
  deliveryCount: 0,
};
// One sandbox per state file: a second one on it, in this process or another, is refused while the first runs.
const held = join(scratch, 'held.json');
const holder = await createSandbox({ data: held });
const inUse = await thrown(() => createSandbox({ data: held }));
await holder.close();
const errors = {
  unknownOption: describe(await thrown(() => createSandbox({ bulkItemDelayMs: 5 })), ConfigError),
  badValue: describe(await thrown(() => resolveConfig({ port: -1 })), ConfigError),
  // At start-up; the handle's setScenario() answers as the control API does (ControlApiError 404).
  scenario: describe(await thrown(() => createSandbox({ scenario: 'no-such-scenario' })), ScenarioError),
  fixture: describe(await thrown(() => createSandbox({ fixtures: join(scratch, 'none') })), FixtureError),
  stateFile: describe(await thrown(() => createSandbox({ data: corrupt })), StateFileError),
  stateFileInUse: { ...describe(inUse, StateFileInUseError), pid: inUse.pid },
  drainTimeout: {
    ...describe(new DrainTimeoutError(20, waiting), DrainTimeoutError),
    waiting: new DrainTimeoutError(20, waiting).waiting,
  },
  storeWrite: {
    ...describe(new StoreWriteError(Object.assign(new Error('full'), { code: 'ENOSPC' })), StoreWriteError),
    code: new StoreWriteError(Object.assign(new Error('full'), { code: 'ENOSPC' })).code,
  },
};
process.stdout.write(`${JSON.stringify({ health, errors })}\n`);
