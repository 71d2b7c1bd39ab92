import { randomUUID } from 'node:crypto';
import { runRefund } from '../bank/incoming-payments/refunds.js';
import { runReversal } from '../bank/reversals/service.js';
import type { Config } from '../config.js';
import { sandboxPath } from '../contract/mounts.js';
import type { Scenario } from '../contract/scenarios.js';
import type { ControlHooks, SandboxesHooks } from '../control/hooks.js';
import { LiveFeed } from '../dashboard/live.js';
import type { Deps } from '../deps.js';
import { type Clock, type ClockState, VirtualClock } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import type { StateDocument } from '../domain/records.js';
import { TokenEpoch } from '../domain/token-epoch.js';
import { BulkProcessor } from '../engine/bulk-processor.js';
import type { Engines } from '../engine/engines.js';
import { Scheduler } from '../engine/scheduler.js';
import { WebhookDispatcher } from '../engine/webhook-dispatcher.js';
import { DrainTimeoutError } from '../errors.js';
import { type Auth, createAuth } from '../http/auth.js';
import type { RequestWorld } from '../http/env.js';
import { type JournalPool, RequestJournal } from '../http/request-log.js';
import type { Log, LogEvent } from '../log.js';
import { ScenarioController } from '../scenarios/controller.js';
import type { ScenarioLibrary } from '../scenarios/library.js';
import type { Fixtures } from '../store/fixtures.js';
import type { Store } from '../store/store.js';
import type { Uploads } from '../store/uploads.js';
import { DriftReport } from '../upstream/drift.js';
import { waitingWorkNow } from './waiting.js';

/** What every world of a process shares: settings, fixtures, ready scenarios and where lines go. */
export interface WorldShared {
  config: Config;
  fixtures: Fixtures;
  library: ScenarioLibrary;
  /** The process's log: any event (an isolated sandbox's lines carry its id besides the catalogue's fields). */
  log: (entry: LogEvent | string) => void;
  requestLog: ((line: string) => void) | null;
  /** The port the process is served on, once known: a webhook URL must not point at it. */
  ownPort: () => number | null;
  /** What the sandbox clocks run on: the system clock, unless a test brings its own. */
  timeSource: Clock;
  version: string;
}

/** What makes one world: its store and uploads, and what it starts from and goes back to on a reset. */
export interface WorldSpec {
  /** The isolated sandbox's id; null for the root. */
  id: string | null;
  store: Store;
  uploads: Uploads;
  /** The seed of scenario draws for scenarios without a seed of their own. */
  seed: number;
  /** The scenario it starts with and a reset brings back. */
  scenario: Scenario;
  /** Where its clock starts, and where a reset puts it back. */
  clock: ClockState;
  /** The state a reset brings back, the caller's to keep: its records become the state's (frozen). */
  initialState: () => Promise<StateDocument>;
  /** The registry of isolated sandboxes (driven from the root only; every world's dashboard lists them). */
  sandboxes: SandboxesHooks;
  /** When the world was made (real time, ms). */
  startedAt: number;
  /** With `--upstream`, the root's drift report; an isolated sandbox always emulates, and has an empty one. */
  drift?: DriftReport;
  /** The bound its request journal shares with others' (`--sandboxes-journal-bytes`); none for the root. */
  journalPool?: JournalPool;
}

/**
 * Everything one sandbox owns: its state, clock, scenario, token epoch, request journal, outbox (in its state),
 * bulk and webhook engines, drift report and dashboard feed. The root is the world a process starts with; an
 * isolated sandbox is another, made by the same function (`buildWorld`). Nothing of one reaches another: the doors
 * find each request's world in its environment (`RequestWorld`), never through anything module-wide.
 */
export class World implements RequestWorld {
  readonly id: string | null;
  readonly prefix: string;
  readonly deps: Deps;
  readonly auth: Auth;
  readonly engines: Engines;
  readonly control: ControlHooks;
  /** When it was made, and when a request last reached it (real time, ms); how many requests it answered. */
  readonly createdAt: number;
  lastUsedAt: number;
  requests = 0;
  private liveFeed: LiveFeed | undefined;
  private disposed = false;
  /** Requests and drains of its own in flight: while any is, it is in use, whatever its idle time says. */
  private held = 0;
  /** Whether the last `idleSince` found a page or a delivery of its own in flight. */
  private streamingAtLastLook = false;
  /** Settles when it is dropped: a drain waiting on its engines learns at once that they are gone. */
  private readonly dropped: Promise<void>;
  private onDropped: () => void = () => undefined;

  constructor(
    spec: WorldSpec,
    deps: Deps,
    engines: Engines,
    control: ControlHooks,
    private readonly journal: RequestJournal,
  ) {
    this.id = spec.id;
    this.prefix = spec.id === null ? '' : sandboxPath(spec.id);
    this.deps = deps;
    this.engines = engines;
    this.dropped = new Promise((resolve) => {
      this.onDropped = resolve;
    });
    const drain = control.drain;
    // A drain is in use of its world until it ends; one whose world is dropped under it says so, never that its
    // work ran.
    this.control = { ...control, drain: (options) => this.drainHeld(drain, options) };
    this.auth = createAuth(deps);
    this.createdAt = spec.startedAt;
    this.lastUsedAt = spec.startedAt;
  }

  get feed(): LiveFeed {
    const { sandboxes, sandboxId, drift } = this.control;
    this.liveFeed ??= new LiveFeed(this.deps, this.journal, drift, {
      version: () => sandboxes.version,
      view: () => ({ current: sandboxId, ids: sandboxes.list().map((s) => s.id) }),
    });
    // A page that connects to a sandbox already dropped is told at once (its feed was closed with it).
    if (this.disposed) this.liveFeed.close();
    return this.liveFeed;
  }

  /** A request reached it: in use until `leave`. */
  enter(now: number): void {
    this.lastUsedAt = now;
    this.requests++;
    this.held++;
  }

  /** A request of its own was answered: its idle time counts from now (unless another is still in flight). */
  leave(now: number): void {
    this.held--;
    this.lastUsedAt = now;
  }

  /**
   * When it was last in use (real time, ms), for the idle sweep: `now` while a request or drain of its own is in
   * flight, a dashboard page streams its events, or a webhook delivery of its own is being attempted or waits for a
   * retry that real time brings (a retry on a frozen clock waits for an advance, which is a request). A page or a
   * delivery that was in use at the last look and is over now ended in between: its idle time counts from now, never
   * from before it ended (a request's counts from its answer, `leave`).
   */
  idleSince(now: number): number {
    const { webhooks } = this.engines;
    const realTime = this.deps.clock.state().frozenAt === null;
    const streaming = (this.liveFeed?.size ?? 0) > 0 || webhooks.busy(realTime);
    if (this.held > 0 || streaming || this.streamingAtLastLook)
      this.lastUsedAt = Math.max(this.lastUsedAt, now);
    this.streamingAtLastLook = streaming;
    return this.lastUsedAt;
  }

  /** The refusal of a request or drain whose world was dropped under it. */
  deletedError(): ApiError {
    return new ApiError(410, `Sandbox "${this.id}" was deleted`);
  }

  private async drainHeld(
    drain: ControlHooks['drain'],
    options: Parameters<ControlHooks['drain']>[0],
  ): Promise<void> {
    this.held++;
    try {
      const outcome = await Promise.race([drain(options).then(() => 'drained' as const), this.dropped]);
      if (outcome !== 'drained' || this.disposed) throw this.deletedError();
    } catch (error) {
      throw this.disposed ? this.deletedError() : error;
    } finally {
      this.leave(Date.now());
    }
  }

  /** Whether it was dropped: a request that still holds it finds nothing more to do. */
  get gone(): boolean {
    return this.disposed;
  }

  /**
   * Ends it. `keepState` (the root, as the process stops): the engines stop and the state is flushed and closed, its
   * open work kept in it for the next start. Without (an isolated sandbox deleted or expired): it is dropped at once,
   * before this resolves, its queued items and pending deliveries gone, the work sleeping on its clock woken to find
   * its engines stopped, and its dashboard pages told to reload.
   */
  async close({ keepState }: { keepState: boolean }): Promise<void> {
    if (keepState) {
      this.stopEngines();
      await this.deps.store.close();
      return;
    }
    if (this.disposed) return;
    this.disposed = true;
    this.onDropped();
    this.stopEngines();
    this.deps.scenarios.release();
    this.deps.clock.reset();
    this.liveFeed?.close();
    this.journal.detach();
    await this.deps.store.close();
  }

  private stopEngines(): void {
    this.engines.bulk.close();
    this.engines.webhooks.close();
    this.engines.later.close();
  }
}

/**
 * Builds a world from its store: the clock (restored from the state, kept in it after each change), the scenario
 * controller, the engines (resuming what the state left open), the request journal, the drift report, and the
 * control hooks that reset and drain it.
 */
export function buildWorld(shared: WorldShared, spec: WorldSpec): World {
  const { config, fixtures, library, log, requestLog, ownPort } = shared;
  const { store, uploads } = spec;
  const clock = new VirtualClock(shared.timeSource);
  // The state keeps the clock: time goes on from where it was, across a restart.
  clock.restore(store.meta().clock ?? spec.clock);
  clock.persistWith((state) =>
    store.mutate((tx) => {
      const meta = tx.get('meta', 'meta');
      if (meta) tx.put('meta', { ...meta, clock: state });
    }),
  );
  const scenarios = new ScenarioController(spec.scenario, library, spec.seed, () => clock.now());
  const tokens = new TokenEpoch();
  const worldLog: Log = spec.id === null ? log : inSandbox(log, spec.id);
  const deps: Deps = {
    store,
    uploads,
    scenarios,
    fixtures,
    config,
    clock,
    log: worldLog,
    requestLog,
    ownPort,
    tokens,
  };
  // What is due later: the bank's reversals and refunds, and the dispatcher's late duplicates.
  const later: Scheduler = new Scheduler(deps, {
    reversal: runReversal(deps),
    refund: runRefund(deps),
    duplicate: (tx, job) => webhooks.lateDuplicate(tx, job),
  });
  const bulk = new BulkProcessor(deps, later);
  const webhooks = new WebhookDispatcher(deps, later);
  const journal = new RequestJournal(config.journalSize, config.journalBytes, spec.journalPool ?? null);
  const reset = async () => {
    const doc = await spec.initialState();
    const before = { clock: clock.state(), rules: scenarios.save(), tokens: tokens.save() };
    // In one synchronous step up to the new state: work the clock wakes here finds its records gone.
    bulk.clear();
    webhooks.clear();
    later.clear();
    scenarios.reset();
    clock.reset();
    if (spec.clock.frozenAt !== null || spec.clock.offsetMs !== 0) clock.restore(spec.clock);
    // Every token issued so far is of the state before: refused from now on, told why (and when, in real time:
    // what a test that lost a race with another's reset can put beside its own log).
    tokens.begin(randomUUID(), shared.timeSource.now());
    try {
      await store.replaceState(doc);
    } catch (error) {
      // The disk refused the new state, and the store put the old one back: so do its clock, its rules, its
      // tokens and its background work.
      clock.restore(before.clock);
      scenarios.restore(before.rules);
      tokens.restore(before.tokens);
      bulk.resume();
      webhooks.resume();
      later.resume();
      throw error;
    }
    await uploads.clear();
  };
  // Items a scenario holds `processing` are let go by a drain, including those that reach their turn during it.
  const drain = async ({ timeoutMs }: { timeoutMs: number }) => {
    let timer: NodeJS.Timeout | undefined;
    // Real time: a drain waits for work, and work on a frozen clock only moves when the clock is advanced.
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const idle = async (): Promise<'idle'> => {
      await bulk.idle();
      await webhooks.idle();
      // What is due now: a reversal, refund or late duplicate due later does not hold a drain.
      await later.idle();
      // A late duplicate handed to the dispatcher just now.
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
  const drift = spec.drift ?? new DriftReport(null);
  const control: ControlHooks = {
    version: shared.version,
    startedAt: spec.startedAt,
    reset,
    drain,
    requests: journal,
    drift,
    sandboxes: spec.sandboxes,
    sandboxId: spec.id,
  };
  return new World(spec, deps, { bulk, webhooks, later }, control, journal);
}

/** The log of an isolated sandbox: each of its lines names it (`sandbox` in JSON, `sandbox=ID` in text). */
function inSandbox(log: WorldShared['log'], id: string): Log {
  return (entry) => {
    if (typeof entry === 'string') return log(`${entry} sandbox=${id}`);
    log({ ...entry, fields: { ...entry.fields, sandbox: id }, text: `${entry.text} sandbox=${id}` });
  };
}
