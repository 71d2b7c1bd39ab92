import { Server } from 'node:http';
import { dirname, join } from 'node:path';
import { serve } from '@hono/node-server';
import pkg from '../package.json' with { type: 'json' };
import { type App, createApp } from './app.js';
import { receivePayment } from './bank/incoming-payments/service.js';
import { credentials } from './bank/tenants/credentials.js';
import { createClient } from './bank/tenants/service.js';
import type { SandboxHandle } from './client/handle.js';
import { handleOverHttp } from './client/over-http.js';
import { type Config, type ConfigInput, resolveConfig } from './config.js';
import { type NewClient, newClientBody } from './contract/control/clients.js';
import type { IncomingPayment } from './contract/control/incoming-payments.js';
import { DRAIN_TIMEOUT_MS } from './contract/control/sandbox.js';
import { CONTROL_PREFIX } from './contract/mounts.js';
import type { Scenario } from './contract/scenarios.js';
import { waitingWorkNow } from './control/sandbox/waiting.js';
import type { Deps } from './deps.js';
import { type Clock, REAL_TIME, systemClock, VirtualClock } from './domain/clock.js';
import { ApiError } from './domain/errors.js';
import { parseInput } from './domain/parse.js';
import type { StateDocument } from './domain/records.js';
import { BulkProcessor } from './engine/bulk-processor.js';
import { WebhookDispatcher } from './engine/webhook-dispatcher.js';
import { ControlApiError, DrainTimeoutError } from './errors.js';
import { answerClientError } from './http/client-error.js';
import { listensOnLoopback } from './http/exposure.js';
import type { AnswerCheck } from './http/mount.js';
import { createLog, type Log } from './log.js';
import {
  clientRefused,
  compactionFailed,
  exposed,
  resumed,
  stateKept,
  takenOver,
  writeHealth,
} from './log-events.js';
import { ScenarioController } from './scenarios/controller.js';
import { embeddedScenariosDir, ScenarioLibrary } from './scenarios/library.js';
import type { StoreFileSystem } from './store/file-system.js';
import { type Fixtures, isFixtureState, loadFixtures } from './store/fixtures.js';
import { buildInitialState } from './store/seed.js';
import { Store } from './store/store.js';
import { Uploads } from './store/uploads.js';

export const version: string = pkg.version;

/**
 * Settings as code gives them. Unlike the CLI, code gets a memory store unless it names a `data` file, a free
 * port unless it names one, and only warnings and errors in the log unless `quiet: false`.
 */
export interface SandboxOptions extends ConfigInput {
  /**
   * Where log lines go, one formatted line (`logFormat`) per call (default: standard error). `quiet` (on by
   * default in code) keeps warnings and errors only: failed webhook attempts, batches with failed items, disk
   * trouble, unexpected errors; `quiet: false` adds request lines and batch starts and settlements.
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
  /** A business's ledger, newest first; `{retrievalReference}` finds one transfer's entry. */
  ledger: SandboxHandle['ledger'];
  /** Adds a subscription plan to a business. */
  addSubscription: SandboxHandle['addSubscription'];
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
  /** Flushes and closes the store. */
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
}

/** Parts the tests replace; not part of the package's interface. */
export interface SandboxInternals {
  /** The store's file operations (a layer that injects disk faults). */
  storeFs?: StoreFileSystem;
  /** How often a store whose writes fail tries again by itself, ms (default 1000). */
  probeIntervalMs?: number;
  /** Looks at every answer of a defined route (the tests check it against the route's documented schema). */
  checkAnswers?: AnswerCheck;
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
  return (await assemble(options, timeSource, internals)).sandbox;
}

/** `createSandbox`, with the log its parts write to, for the server `startSandbox` puts in front of it. */
async function assemble(
  options: SandboxOptions,
  timeSource: Clock,
  internals: SandboxInternals,
): Promise<{ sandbox: Sandbox; log: Log }> {
  const clock = new VirtualClock(timeSource);
  const { log: write = (line: string) => process.stderr.write(`${line}\n`), ...input } = options;
  const config = resolveConfig({ inMemory: input.data === undefined, port: 0, quiet: true, ...input });
  const { log, requests: requestLog } = createLog(config, write);
  const fixtures = await loadFixtures(config.fixtures);
  const library = await ScenarioLibrary.load(embeddedScenariosDir);
  const scenarios = new ScenarioController(await library.choose(config.scenario), library, config.seed);
  let initial: Promise<StateDocument> | null = null;
  // Built once, on first need (first start, reset), and copied each time: the store freezes what it holds.
  const initialState = async () => {
    initial ??= buildInitialState(fixtures, config.seed);
    return structuredClone(await initial);
  };
  // Whether the store built its state now, or found a state file and kept it.
  let builtNow = false;
  const store = await Store.open({
    file: config.inMemory ? null : config.data,
    compactAfterBytes: config.compactAfter,
    fs: internals.storeFs,
    probeIntervalMs: internals.probeIntervalMs,
    initialState: () => {
      builtNow = true;
      return initialState();
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
  // The state keeps the clock: time goes on from where it was, across a restart.
  clock.restore(store.meta().clock ?? REAL_TIME);
  clock.persistWith((state) =>
    store.mutate((tx) => {
      const meta = tx.get('meta', 'meta');
      if (meta) tx.put('meta', { ...meta, clock: state });
    }),
  );
  const uploads = new Uploads(config.inMemory ? null : join(dirname(config.data), 'uploads'));
  let servedOn: number | null = null;
  const ownPort = () => servedOn ?? (config.port === 0 ? null : config.port);
  const deps: Deps = { store, uploads, scenarios, fixtures, config, clock, log, requestLog, ownPort };
  const bulk = new BulkProcessor(deps);
  const webhooks = new WebhookDispatcher(deps);
  const resumedItems = bulk.resume();
  const resumedDeliveries = webhooks.resume();
  if (resumedItems > 0 || resumedDeliveries > 0) log(resumed(resumedItems, resumedDeliveries));
  const reset = async () => {
    const doc = await initialState();
    const before = { clock: clock.state(), rules: scenarios.save() };
    // In one synchronous step up to the new state: work the clock wakes here finds its records gone.
    bulk.clear();
    webhooks.clear();
    scenarios.reset();
    clock.reset();
    try {
      await store.replaceState(doc);
    } catch (error) {
      // The disk refused the new state, and the store put the old one back: so do its clock, its rules and its
      // background work.
      clock.restore(before.clock);
      scenarios.restore(before.rules);
      bulk.resume();
      webhooks.resume();
      throw error;
    }
    await uploads.clear();
  };
  // Items a scenario holds `processing` are let go by a drain, including those that reach their turn during it.
  const drain = async ({ timeoutMs = DRAIN_TIMEOUT_MS }: { timeoutMs?: number } = {}) => {
    let timer: NodeJS.Timeout | undefined;
    // Real time: a drain waits for work, and work on a frozen clock only moves when the clock is advanced.
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const idle = async (): Promise<'idle'> => {
      await bulk.idle();
      await webhooks.idle();
      await store.idle();
      return 'idle';
    };
    try {
      const outcome = await scenarios.whileDraining(() => Promise.race([idle(), timedOut]));
      if (outcome === 'timeout')
        throw new DrainTimeoutError(timeoutMs, waitingWorkNow(deps, { bulk, webhooks }));
    } finally {
      clearTimeout(timer);
    }
  };
  const app = createApp(
    deps,
    { version, startedAt: Date.now(), reset, drain },
    { bulk, webhooks },
    internals.checkAnswers,
  );
  // The journal, the credential headers and the scenario go through the app itself, as over HTTP: one
  // implementation, the same answers and errors in-process or not.
  const token = config.controlToken;
  const overApp = handleOverHttp('the sandbox in this process', (path, init) => {
    const headers = new Headers(init.headers);
    if (token && path.startsWith(CONTROL_PREFIX)) headers.set('x-sandbox-token', token);
    return Promise.resolve(app.request(path, { ...init, headers }));
  });
  const sandbox: Sandbox = {
    app,
    store,
    config,
    fixtures,
    clock,
    requests: overApp.requests,
    verify: overApp.verify,
    drift: overApp.drift,
    clearDrift: overApp.clearDrift,
    ledger: overApp.ledger,
    addSubscription: overApp.addSubscription,
    signIn: overApp.signIn,
    schemeB: overApp.schemeB,
    setScenario: overApp.setScenario,
    credentials: async () => credentials(store),
    // The control route's own words for a bad option (`balance is invalid: must be at least 0`), and the same
    // error class as over HTTP.
    newClient: (opts = {}) => asControlApi(async () => createClient(deps, parseInput(newClientBody, opts))),
    incomingPayment: (payment) => asControlApi(() => receivePayment(deps, webhooks, payment)),
    drain,
    // Through the app, as over HTTP: the route empties the journal after the state.
    reset: overApp.reset,
    clearRequests: overApp.clearRequests,
    close: async () => {
      bulk.close();
      webhooks.close();
      await store.close();
    },
    listeningOn: (port) => {
      servedOn = port;
    },
  };
  return { sandbox, log };
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

/** Builds the sandbox and listens on `config.host:config.port` (port 0 picks a free one). */
export async function startSandbox(
  options: SandboxOptions = {},
  timeSource: Clock = systemClock,
): Promise<RunningSandbox> {
  const { sandbox, log } = await assemble(options, timeSource, {});
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve(
        { fetch: sandbox.app.fetch, port: sandbox.config.port, hostname: sandbox.config.host },
        () => resolve(s),
      );
      s.once('error', reject);
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
  // `serve()` makes an `http.Server` (no `createServer` is given), listening on a port, not a pipe.
  if (!(server instanceof Server) || address === null || typeof address === 'string') {
    server.close();
    await sandbox.close();
    throw new Error(`the sandbox's server does not listen on a TCP port (${String(address)})`);
  }
  const httpServer = server;
  sandbox.listeningOn(address.port);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const listening = `${host}:${address.port}`;
  if (sandbox.config.controlToken === undefined && !listensOnLoopback(address.address))
    log(exposed(listening));
  // Every interface is reached from this machine through its loopback address.
  const local = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
  return {
    ...sandbox,
    url: `http://${local}:${address.port}`,
    listening,
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
