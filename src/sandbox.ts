import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import pkg from '../package.json' with { type: 'json' };
import { type App, createApp } from './app.js';
import { receivePayment } from './bank/incoming-payments/service.js';
import { credentials } from './bank/tenants/credentials.js';
import { createClient } from './bank/tenants/service.js';
import type { IsolatedParts, IsolateOptions, SandboxHandle } from './client/handle.js';
import {
  handleOverHttp,
  scenarioRulesOverHttp,
  type Transport,
  withScenarioRules,
} from './client/over-http.js';
import { type Config, ConfigError, type ConfigInput, resolveConfig, upstreamUrl } from './config.js';
import { type NewClient, newClientBody } from './contract/control/clients.js';
import type { IncomingPayment } from './contract/control/incoming-payments.js';
import { DRAIN_TIMEOUT_MS } from './contract/control/sandbox.js';
import { newSandboxBody } from './contract/control/sandboxes.js';
import { API_PREFIX, CONTROL_PREFIX, sandboxPath } from './contract/mounts.js';
import type { Scenario } from './contract/scenarios.js';
import { type Clock, REAL_TIME, systemClock, type VirtualClock } from './domain/clock.js';
import { ApiError } from './domain/errors.js';
import { parseInput } from './domain/parse.js';
import { ControlApiError } from './errors.js';
import { answerClientError, answerUnreadableRequest } from './http/client-error.js';
import type { AppEnv } from './http/env.js';
import { listensOnLoopback } from './http/exposure.js';
import type { AnswerCheck } from './http/mount.js';
import { createLog, type Log } from './log.js';
import {
  clientRefused,
  compactionFailed,
  exposed,
  requestError,
  resumed,
  stateKept,
  takenOver,
  writeHealth,
} from './log-events.js';
import { embeddedScenariosDir, ScenarioLibrary } from './scenarios/library.js';
import { nodeFileSystem, type StoreFileSystem } from './store/file-system.js';
import { type Fixtures, isFixtureState, loadFixtures } from './store/fixtures.js';
import { Store } from './store/store.js';
import { Uploads } from './store/uploads.js';
import { DriftReport } from './upstream/drift.js';
import { shownUpstream } from './upstream/proxy.js';
import { Recording } from './upstream/recording.js';
import { Worlds } from './worlds/registry.js';
import { SeedStates } from './worlds/seed-states.js';
import { buildWorld, type World, type WorldShared } from './worlds/world.js';

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

/** `createSandbox`, with the log its parts write to, for the server `startSandbox` puts in front of it. */
async function assemble(
  options: SandboxOptions,
  timeSource: Clock,
  internals: SandboxInternals,
): Promise<{ sandbox: Sandbox; log: Log; worlds: Worlds; recording: Recording | undefined }> {
  const { log: write = (line: string) => process.stderr.write(`${line}\n`), ...input } = options;
  const config = resolveConfig({ inMemory: input.data === undefined, port: 0, quiet: true, ...input });
  const { log, requests: requestLog } = createLog(config, write);
  // Before anything holds a file or a port: a recording that cannot be written stops the start at once. Its file is
  // only written once the caller says the start is complete (`begin()`), so a refusal below leaves it as it was.
  const recording = await openRecording(
    config,
    internals.storeFs ?? nodeFileSystem,
    log,
    internals.recordingWriteEveryMs,
  );
  const fixtures = await loadFixtures(config.fixtures);
  const library = await ScenarioLibrary.load(embeddedScenariosDir, fixtures.nibss);
  const startup = await library.choose(config.scenario);
  let servedOn: number | null = null;
  const ownPort = () => servedOn ?? (config.port === 0 ? null : config.port);
  const shared: WorldShared = { config, fixtures, library, log, requestLog, ownPort, timeSource, version };
  // The fixtures' state of a seed, built once for the root and every isolated sandbox of that seed.
  const seeds = new SeedStates(fixtures);
  const worlds = new Worlds(
    shared,
    { max: config.maxSandboxes, idleTtlMs: config.sandboxIdleTtl * 1000 },
    startup,
    seeds,
  );
  internals.worlds?.(worlds);
  // Whether the store built its state now, or found a state file and kept it.
  let builtNow = false;
  const store = await Store.open({
    file: config.inMemory ? null : config.data,
    compactAfterBytes: config.compactAfter,
    fs: internals.storeFs,
    probeIntervalMs: internals.probeIntervalMs,
    initialState: () => {
      builtNow = true;
      return seeds.get(config.seed);
    },
    isState: isFixtureState(fixtures),
    onCompactionError: (error) => log(compactionFailed(error)),
    onWriteHealth: (health) => log(writeHealth(health)),
    // Writes are refused from then on; the CLI stops the process (`store.whenTakenOver()`).
    onTakenOver: (error) => log(takenOver(error)),
  });
  if (!builtNow) {
    // Said only of what the caller gave (code's options, the CLI's flags and variables), not of a default: a seed
    // equal to the state's changes nothing, a fixtures folder may (the state does not record which one made it).
    const stateSeed = store.meta().seed;
    const seed = input.seed !== undefined && config.seed !== stateSeed ? config.seed : null;
    const folder = input.fixtures !== undefined ? config.fixtures : null;
    if (seed !== null || folder !== null) log(stateKept(config.data, stateSeed, seed, folder));
  }
  const upstream = config.upstream === undefined ? undefined : upstreamUrl(config.upstream);
  const root = buildWorld(shared, {
    id: null,
    store,
    uploads: new Uploads(config.inMemory ? null : join(dirname(config.data), 'uploads')),
    seed: config.seed,
    scenario: startup,
    clock: REAL_TIME,
    initialState: () => seeds.get(config.seed),
    sandboxes: worlds,
    startedAt: Date.now(),
    drift: new DriftReport(upstream ? shownUpstream(upstream) : null),
  });
  const { bulk, webhooks } = root.engines;
  const resumedItems = bulk.resume();
  const resumedDeliveries = webhooks.resume();
  // Reversals, refunds and late duplicates the state holds run at their moment, each once.
  root.engines.later.resume();
  if (resumedItems > 0 || resumedDeliveries > 0) log(resumed(resumedItems, resumedDeliveries));
  const app = createApp(root, worlds, internals.checkAnswers, recording && ((e) => recording.add(e)));
  const sandbox = sandboxOf(root, app, worlds, fixtures, config, {
    close: async () => {
      worlds.close();
      await root.close();
      // The answers of the last moments, whose write was still waiting its turn.
      await recording?.flush();
    },
    listeningOn: (port) => {
      servedOn = port;
    },
  });
  return { sandbox, log, worlds, recording };
}

/**
 * `--record`'s recording, its folder checked but its file not touched yet; undefined without the setting. A file
 * that cannot be written is a setting that does not work: a `ConfigError` of one line, which the CLI turns into
 * exit 2.
 */
async function openRecording(
  config: Config,
  fs: StoreFileSystem,
  log: Log,
  writeEveryMs: number | undefined,
): Promise<Recording | undefined> {
  const upstream = config.upstream === undefined ? undefined : upstreamUrl(config.upstream);
  if (config.record === undefined || upstream === undefined) return undefined;
  try {
    return await Recording.open({
      file: config.record,
      upstream: shownUpstream(upstream),
      fs,
      log,
      writeEveryMs,
    });
  } catch (error) {
    const why = String((error as Error)?.message ?? error).replace(/\s+/g, ' ');
    throw new ConfigError(`--record ${config.record} cannot be written: ${why}`);
  }
}

/**
 * The in-process handle of one world: its store, clock and controls directly, and what goes through the app (the
 * journal, the credential headers, the scenario) as over HTTP, under the world's own paths.
 */
function sandboxOf(
  world: World,
  app: App,
  worlds: Worlds,
  fixtures: Fixtures,
  config: Config,
  own: Pick<Sandbox, 'close' | 'listeningOn'>,
): Sandbox {
  const { deps } = world;
  // The journal, the credential headers and the scenario go through the app itself, as over HTTP: one
  // implementation, the same answers and errors in-process or not.
  const token = config.controlToken;
  const where =
    world.id === null ? 'the sandbox in this process' : `isolated sandbox ${world.id} in this process`;
  const transport: Transport = (path, init) => {
    const headers = new Headers(init.headers);
    if (token && path.startsWith(CONTROL_PREFIX)) headers.set('x-sandbox-token', token);
    return Promise.resolve(app.request(`${world.prefix}${path}`, { ...init, headers }));
  };
  const overApp = handleOverHttp(where, transport);
  // What the handle does in the world itself, not through the app: refused as the app refuses it once the isolated
  // sandbox is deleted, instead of working on a world nobody can reach any more.
  const inWorld = <T>(work: () => T | Promise<T>): Promise<T> =>
    asControlApi(async () => {
      if (world.gone) throw new ApiError(404, `No sandbox named "${world.id}"`);
      return work();
    });
  const addRules = scenarioRulesOverHttp(where, transport);
  return {
    app: world.id === null ? app : underPrefix(app, world.prefix),
    store: deps.store,
    config,
    fixtures,
    clock: deps.clock,
    requests: overApp.requests,
    verify: overApp.verify,
    drift: overApp.drift,
    clearDrift: overApp.clearDrift,
    ledger: overApp.ledger,
    reverseTransfer: overApp.reverseTransfer,
    refundPayment: overApp.refundPayment,
    addSubscription: overApp.addSubscription,
    accountNumbers: overApp.accountNumbers,
    signIn: overApp.signIn,
    schemeB: overApp.schemeB,
    setScenario: overApp.setScenario,
    credentials: () => inWorld(() => credentials(deps.store)),
    // The control route's own words for a bad option (`balance is invalid: must be at least 0`), and the same
    // error class as over HTTP.
    newClient: (opts = {}) =>
      inWorld(async () =>
        withScenarioRules(await createClient(deps, parseInput(newClientBody, opts)), addRules),
      ),
    incomingPayment: (payment) =>
      inWorld(() => receivePayment(deps, world.engines.webhooks, payment, world.engines.later)),
    drain: ({ timeoutMs = DRAIN_TIMEOUT_MS } = {}) => inWorld(() => world.control.drain({ timeoutMs })),
    // Through the app, as over HTTP: the route empties the journal after the state.
    reset: overApp.reset,
    clearRequests: overApp.clearRequests,
    sandboxes: overApp.sandboxes,
    isolate: async (options = {}) => {
      const { id, world: isolated } = await asControlApi(async () => {
        if (world.id !== null)
          throw new ApiError(
            404,
            `Isolated sandboxes are made, listed and deleted at the root (/__sandbox/sandboxes), not inside one (${world.id})`,
          );
        return worlds.make(parseInput(newSandboxBody, options));
      });
      const dispose = async () => {
        if (!isolated.gone) worlds.remove(id);
      };
      const handle = sandboxOf(isolated, app, worlds, fixtures, config, {
        close: dispose,
        listeningOn: own.listeningOn,
      });
      return { ...handle, id, apiUrl: `${isolated.prefix}${API_PREFIX}`, dispose };
    },
    ...own,
  };
}
/** Runs `work`; a refusal it throws is the `ControlApiError` the control API's answer becomes over HTTP. */
async function asControlApi<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError)
      throw new ControlApiError(error.message, error.status, error.data ?? null, error.errors ?? []);
    throw error;
  }
}

/**
 * The app as an isolated sandbox's handle offers it: `request('/api/v1/…')` reaches that sandbox, its paths put
 * under its `/sandboxes/{id}` before the process's app routes them.
 */
function underPrefix(app: App, prefix: string): App {
  const scoped = new Hono<AppEnv>();
  scoped.fetch = (request, env) => {
    const url = new URL(request.url);
    url.pathname = `${prefix}${url.pathname}`;
    return app.fetch(new Request(url, request), env);
  };
  return scoped;
}

/** Builds the sandbox and listens on `config.host:config.port` (port 0 picks a free one). */
export async function startSandbox(
  options: SandboxOptions = {},
  timeSource: Clock = systemClock,
): Promise<RunningSandbox> {
  const { sandbox, log, recording } = await assemble(options, timeSource, {});
  // The listener `serve()` would make, with an error handler of ours: `serve()` does not pass one on, and without it
  // a request target no URL can be made of gets a bare 400.
  const listener = getRequestListener(sandbox.app.fetch, {
    hostname: sandbox.config.host,
    errorHandler: answerUnreadableRequest(
      (refusal) => log(clientRefused(refusal)),
      (error, requestId) => log(requestError('-', '-', requestId, error)),
    ),
  });
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = createServer(listener);
      s.once('error', reject);
      s.listen(sandbox.config.port, sandbox.config.host, () => resolve(s));
    });
  } catch (error) {
    // A port in use: the state file is let go (its lock removed), so that a start on another port can have it.
    await sandbox.close();
    throw error;
  }
  // A request Node's parser refuses never reaches the app: answered here, with the envelope and a request id.
  server.on(
    'clientError',
    answerClientError((refusal) => log(clientRefused(refusal))),
  );
  const address = server.address();
  // Listening on a port, not a pipe.
  if (address === null || typeof address === 'string') {
    server.close();
    await sandbox.close();
    throw new Error(`the sandbox's server does not listen on a TCP port (${String(address)})`);
  }
  const httpServer = server;
  // Listening: the start can no longer be refused, and the recording's file may be replaced.
  await recording?.begin();
  sandbox.listeningOn(address.port);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const listening = `${host}:${address.port}`;
  if (sandbox.config.controlToken === undefined && !listensOnLoopback(address.address))
    log(exposed(listening));
  // Every interface is reached from this machine through its loopback address.
  const local = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
  const url = `http://${local}:${address.port}`;
  /** An isolated sandbox's handle, served here: its URLs under its `/sandboxes/{id}`. */
  const served = (isolated: Sandbox & IsolatedParts): RunningSandbox & IsolatedParts => ({
    ...isolated,
    url: `${url}${sandboxPath(isolated.id)}`,
    apiUrl: `${url}${isolated.apiUrl}`,
    listening,
    isolate: async (options) => served(await isolated.isolate(options)),
  });
  return {
    ...sandbox,
    url,
    listening,
    isolate: async (options) => served(await sandbox.isolate(options)),
    close: async () => {
      // Stop accepting, let requests in flight finish (briefly), then flush the store.
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const force = setTimeout(() => httpServer.closeAllConnections(), 1000);
      await closed;
      clearTimeout(force);
      await sandbox.close();
    },
  };
}
