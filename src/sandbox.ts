import pkg from '../package.json' with { type: 'json' };
import { type App, createApp, underPrefix } from './app.js';
import type { IsolatedParts, IsolateOptions, SandboxHandle } from './client/handle.js';
import { type InProcessApp, inProcessHandle } from './client/in-process.js';
import { type Config, type ConfigInput, resolveConfig } from './config.js';
import type { NewClient } from './contract/control/clients.js';
import type { IncomingPayment } from './contract/control/incoming-payments.js';
import { sandboxPath } from './contract/mounts.js';
import type { Scenario } from './contract/scenarios.js';
import { type Clock, systemClock, type VirtualClock } from './domain/clock.js';
import { ControlApiError } from './errors.js';
import type { AnswerCheck } from './http/mount.js';
import { serve } from './http/serve.js';
import { createLog, type Log } from './log.js';
import { embeddedScenariosDir, ScenarioLibrary } from './scenarios/library.js';
import type { StoreFileSystem } from './store/file-system.js';
import { type Fixtures, loadFixtures } from './store/fixtures.js';
import type { Store } from './store/store.js';
import { openRecording } from './upstream/open-recording.js';
import type { Recording } from './upstream/recording.js';
import { noSuchSandbox, Worlds } from './worlds/registry.js';
import { rootOpening } from './worlds/root.js';
import { SeedStates } from './worlds/seed-states.js';
import type { World, WorldShared } from './worlds/world.js';

export const version: string = pkg.version;

/**
 * Settings as code gives them. Unlike the CLI, code gets a memory store unless it names a `data` file, a free
 * port unless it names one, and only warnings and errors in the log unless `quiet: false`.
 */
export interface SandboxOptions extends ConfigInput {
  /**
   * Where log lines go, one formatted line (`logFormat`) per call (default: standard error). `quiet` (on by
   * default in code) keeps warnings and errors only: webhook attempts the receiver did not acknowledge, batches with
   * an item that failed unexpectedly, disk trouble, unexpected errors; never what a scenario rule caused on purpose.
   * `quiet: false` adds request lines, batch starts and settlements, and what the scenario did.
   * `log: () => {}` keeps nothing.
   */
  log?: (line: string) => void;
}

export type { ClientCredentials, NewClientCredentials } from './client/handle.js';

/** A sandbox without a port: the app for `app.request()`, its store, and the controls. */
export interface Sandbox {
  app: App;
  store: Store;
  config: Config;
  fixtures: Fixtures;
  /**
   * The clock every time-based rule reads: advance or freeze it instead of waiting. `await clock.advance(ms)`
   * runs everything that comes due inside the window, in time order, before it resolves.
   */
  clock: VirtualClock;
  /** Every client's logins, keys and businesses, from the live state. */
  credentials: SandboxHandle['credentials'];
  /**
   * A fresh client of its own (keys, approved funded business, members, a permanent virtual account of the
   * business): parallel tests never meet. A bad option rejects with a `SandboxError` (status 400) naming it.
   */
  newClient(options?: NewClient): ReturnType<SandboxHandle['newClient']>;
  /** Money arrives on a virtual account; its webhook is sent (see `drain`). */
  incomingPayment(payment: IncomingPayment): ReturnType<SandboxHandle['incomingPayment']>;
  /** Reverses a successful transfer or bulk item now; its amount and charge come back to the balance. */
  reverseTransfer: SandboxHandle['reverseTransfer'];
  /** Refunds an incoming payment now: what it credited is debited back. */
  refundPayment: SandboxHandle['refundPayment'];
  /** A business's ledger, newest first; `{retrievalReference}` finds one transfer's entry. */
  ledger: SandboxHandle['ledger'];
  /** Adds a subscription plan to a business. */
  addSubscription: SandboxHandle['addSubscription'];
  /**
   * `count` (default 1, at most 100) receiver account numbers of a listed bank whose NUBAN check digit is right
   * (`GET /__sandbox/account-numbers`); a bank code the sandbox does not list rejects with a `ControlApiError` (400).
   */
  accountNumbers: SandboxHandle['accountNumbers'];
  /**
   * Makes a ready scenario (by name) or a scenario object the active one; `null` goes back to the start-up one.
   * Sent through the app (`PUT /__sandbox/scenario`): an unknown name rejects with a `ControlApiError` (404), a bad
   * scenario with one (400) naming the field.
   */
  setScenario(scenario: string | Scenario | null): Promise<void>;
  /** The request journal's entries that match, newest first (`POST /__sandbox/requests/search`). */
  requests: SandboxHandle['requests'];
  /** Resolves when as many requests match as expected; rejects with a `VerificationError` otherwise. */
  verify: SandboxHandle['verify'];
  /** With `--upstream`: how the upstream's answers differed from the routes (`GET /__sandbox/drift`). */
  drift: SandboxHandle['drift'];
  /** Empties the drift report. */
  clearDrift: SandboxHandle['clearDrift'];
  /** Scheme A headers of the client's owner for a business (default: its first approved one), signed in afresh. */
  signIn: SandboxHandle['signIn'];
  /** Scheme B headers of the client for a business (default: its first approved one). */
  schemeB: SandboxHandle['schemeB'];
  /**
   * Resolves once background work is idle and every acknowledged change is on disk. Gives up after `timeoutMs`
   * (default 30 000, as `POST /__sandbox/drain`) with a `DrainTimeoutError` whose message and `waiting` name
   * what is still open: batches and items, deliveries and when each next attempt is due, and whether the clock
   * is frozen (then nothing comes due until `clock.advance()`).
   */
  drain(options?: { timeoutMs?: number }): Promise<void>;
  /** Back to the fixtures, the request journal emptied unless `keepRequests` (as `POST /__sandbox/reset`). */
  reset: SandboxHandle['reset'];
  /** Empties the request journal alone (as `DELETE /__sandbox/requests`). */
  clearRequests: SandboxHandle['clearRequests'];
  /**
   * A new isolated sandbox of this process (`POST /__sandbox/sandboxes`): a `Sandbox` bound to it, whose `app`,
   * `store`, `clock` and controls are its own, with its `apiUrl` and `dispose()` (as `close()`: it deletes it).
   */
  isolate(options?: IsolateOptions): Promise<Sandbox & IsolatedParts>;
  /** The isolated sandboxes of the process: list and delete them (`GET /__sandbox/sandboxes`, `DELETE …/{id}`). */
  sandboxes: SandboxHandle['sandboxes'];
  /** Flushes and closes the store (and drops every isolated sandbox). An isolated sandbox's: deletes it. */
  close(): Promise<void>;
  /**
   * Tells the sandbox the port it is served on, so that a webhook URL pointing back at it is refused.
   * `startSandbox` calls it; call it yourself when you serve `app` with a server of your own.
   */
  listeningOn(port: number): void;
}

/** A sandbox served on a port: `startSandbox()`. It is a `SandboxHandle`, as `connectSandbox()` answers one. */
export interface RunningSandbox extends Sandbox {
  /** Base URL of the server, without `/api/v1` (through the loopback address when it listens on every interface). */
  url: string;
  /** The address and port it listens on, as the server has them: `127.0.0.1:4010`, `0.0.0.0:4010`, `[::]:4010`. */
  listening: string;
  /** A new isolated sandbox, served by the same server: its `url` is `…/sandboxes/{id}`, its `apiUrl` that plus `/api/v1`. */
  isolate(options?: IsolateOptions): Promise<RunningSandbox & IsolatedParts>;
}

/** Parts the tests replace; not part of the package's interface. */
export interface SandboxInternals {
  /** The store's file operations (a layer that injects disk faults). */
  storeFs?: StoreFileSystem;
  /** How often a store whose writes fail tries again by itself, ms (default 1000). */
  probeIntervalMs?: number;
  /** Looks at every answer of a defined route (the tests check it against the route's documented schema). */
  checkAnswers?: AnswerCheck;
  /** Least time between two writes of the `--record` file while answers come, ms (default 250). */
  recordingWriteEveryMs?: number;
  /** Hears the registry of isolated sandboxes once made: a test sweeps it at a time of its own, never sleeping. */
  worlds?: (worlds: Worlds) => void;
}

/**
 * Builds everything but the server: fixtures, store (file or memory), engines, app. `timeSource` is what the
 * sandbox's virtual clock runs on: the system clock, unless a test brings its own.
 */
export async function createSandbox(
  options: SandboxOptions = {},
  timeSource: Clock = systemClock,
  internals: SandboxInternals = {},
): Promise<Sandbox> {
  const { sandbox, recording } = await assemble(options, timeSource, internals);
  // Every start-up check has passed: the recording's file may now be replaced.
  await recording?.begin();
  return sandbox;
}

/** What a world's handle holds directly; every other control goes through the app (`inProcessHandle`). */
type Direct = Pick<Sandbox, 'app' | 'store' | 'config' | 'fixtures' | 'clock' | 'listeningOn'>;

/** `createSandbox`, with the log its parts write to, for the server `startSandbox` puts in front of it. */
async function assemble(
  options: SandboxOptions,
  timeSource: Clock,
  internals: SandboxInternals,
): Promise<{ sandbox: Sandbox; log: Log; recording: Recording | undefined }> {
  const { log: write = (line: string) => process.stderr.write(`${line}\n`), ...input } = options;
  const config = resolveConfig({ inMemory: input.data === undefined, port: 0, quiet: true, ...input });
  const { log, requests: requestLog } = createLog(config, write);
  // Before anything holds a file or a port: a recording that cannot be written stops the start at once. Its file is
  // only written once the caller says the start is complete (`begin()`), so a refusal below leaves it as it was.
  const recording = await openRecording(config, internals.storeFs, log, internals.recordingWriteEveryMs);
  const fixtures = await loadFixtures(config.fixtures);
  const library = await ScenarioLibrary.load(embeddedScenariosDir, fixtures.nibss);
  let servedOn: number | null = null;
  const ownPort = () => servedOn ?? (config.port === 0 ? null : config.port);
  const shared: WorldShared = { config, fixtures, library, log, requestLog, ownPort, timeSource, version };
  // The fixtures' state of a seed, built once for the root and every isolated sandbox of that seed.
  const seeds = new SeedStates(fixtures);
  const worlds = await Worlds.open(shared, seeds, await rootOpening(shared, seeds, input, internals));
  internals.worlds?.(worlds);
  const app = createApp(worlds, internals.checkAnswers, recording && ((e) => recording.add(e)));
  const direct = (world: World): Direct => ({
    app: world.id === null ? app : underPrefix(app, world.prefix),
    store: world.deps.store,
    config,
    fixtures,
    clock: world.deps.clock,
    listeningOn: (port) => {
      servedOn = port;
    },
  });
  const inProcess: InProcessApp<Direct> = {
    request: (path, init, recorded) => app.request(path, init, recorded ? undefined : { recorded }),
    controlToken: config.controlToken,
    partsOf: (id) => {
      const world = worlds.find(id);
      if (world) return direct(world);
      // Deleted by another caller between its making and this.
      const { message, status } = noSuchSandbox(id);
      throw new ControlApiError(message, status);
    },
  };
  const sandbox: Sandbox = inProcessHandle(inProcess, null, direct(worlds.root), async () => {
    await worlds.close();
    // The answers of the last moments, whose write was still waiting its turn.
    await recording?.flush();
  });
  return { sandbox, log, recording };
}

/** Builds the sandbox and listens on `config.host:config.port` (port 0 picks a free one). */
export async function startSandbox(
  options: SandboxOptions = {},
  timeSource: Clock = systemClock,
): Promise<RunningSandbox> {
  const { sandbox, log, recording } = await assemble(options, timeSource, {});
  // A port in use: the state file is let go (its lock removed), so that a start on another port can have it.
  const served = await serve(sandbox.app.fetch, sandbox.config, log).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  // Listening: the start can no longer be refused, and the recording's file may be replaced.
  await recording?.begin();
  sandbox.listeningOn(served.port);
  const { url, listening } = served;
  /** An isolated sandbox's handle, served here: its URLs under its `/sandboxes/{id}`. */
  const servedHere = (isolated: Sandbox & IsolatedParts): RunningSandbox & IsolatedParts => ({
    ...isolated,
    url: `${url}${sandboxPath(isolated.id)}`,
    apiUrl: `${url}${isolated.apiUrl}`,
    listening,
    isolate: async (options) => servedHere(await isolated.isolate(options)),
  });
  return {
    ...sandbox,
    url,
    listening,
    isolate: async (options) => servedHere(await sandbox.isolate(options)),
    close: async () => {
      // Stop accepting, let requests in flight finish (briefly), then flush the store.
      await served.close();
      await sandbox.close();
    },
  };
}
