import { randomBytes } from 'node:crypto';
import type { NewSandbox } from '../contract/control/sandboxes.js';
import { API_PREFIX, CONTROL_PREFIX, ISOLATED_PREFIX } from '../contract/mounts.js';
import type { Scenario } from '../contract/scenarios.js';
import type { SandboxCreated, SandboxesHooks, SandboxSummary } from '../control/hooks.js';
import { type ClockState, END_OF_TIME_MS, START_OF_TIME_MS } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { saltOf } from '../domain/random.js';
import type { StateDocument } from '../domain/records.js';
import { JournalPool } from '../http/request-log.js';
import { sandboxDropped } from '../log-events.js';
import { ScenarioError } from '../scenarios/library.js';
import { openWorld, type WorldOpening } from './open.js';
import type { SeedStates } from './seed-states.js';
import type { World, WorldShared } from './world.js';

/** How the registry is bounded: `--max-sandboxes`, and `--sandbox-idle-ttl` in ms (0: never dropped). */
interface WorldLimits {
  max: number;
  idleTtlMs: number;
}

/** Where a request goes: its world and its path inside it, or the id of an isolated sandbox that does not exist. */
export type Resolved = { world: World; path: string } | { missing: string };

/** The root's opening: the registry it is given to is the one opening it. */
export type RootOpening = Omit<WorldOpening, 'id' | 'sandboxes' | 'journalPool'>;

/** The refusal of a path, or a deletion, that names an isolated sandbox no longer (or never) there. */
export const noSuchSandbox = (id: string) => new ApiError(404, `No sandbox named "${id}"`);

/** The longest wait between two sweeps for idle sandboxes: a short TTL is honoured within about a quarter of it. */
const MAX_SWEEP_MS = 60_000;

/** What every isolated sandbox's path begins with, and where its id starts. */
const ISOLATED_PATHS = `${ISOLATED_PREFIX}/`;
const SEGMENT_START = ISOLATED_PATHS.length;

/**
 * The worlds of a process: the root, opened with the registry (`Worlds.open`), and the isolated sandboxes, made from
 * the fixtures (their seeded state built once per seed and shared, frozen, by every sandbox of that seed), found by
 * the id their paths name, dropped on request or once idle, and never more than `--max-sandboxes` at once.
 */
export class Worlds implements SandboxesHooks {
  /** The world of every path outside `/sandboxes/{id}`: set by `open`, before anyone holds the registry. */
  private rootWorld: World | undefined;
  private readonly worlds = new Map<string, World>();
  /** Ids being made now: taken, and counted against the limit, before the first await. */
  private readonly making = new Set<string>();
  private readonly seeds: SeedStates;
  private sweeper: NodeJS.Timeout | null = null;
  private changes = 0;
  /** The process stops: nothing more is made. */
  private stopping = false;
  /** What their request journals may hold together (`--sandboxes-journal-bytes`). */
  readonly journals: JournalPool;

  private constructor(
    private readonly shared: WorldShared,
    private readonly limits: WorldLimits,
    /** The process's start-up scenario: an isolated sandbox's unless it names its own. */
    private readonly startup: Scenario,
    seeds: SeedStates,
  ) {
    this.seeds = seeds;
    this.journals = new JournalPool(shared.config.sandboxesJournalBytes);
  }

  /**
   * The registry of a process, bounded by `--max-sandboxes` and `--sandbox-idle-ttl`, its root world opened as every
   * isolated sandbox is (`openWorld`); an isolated sandbox starts with the root's start-up scenario unless it names
   * its own. `seeds` builds the fixtures' state of a seed once, for the root and every sandbox of that seed.
   */
  static async open(shared: WorldShared, seeds: SeedStates, root: RootOpening): Promise<Worlds> {
    const { config } = shared;
    const limits = { max: config.maxSandboxes, idleTtlMs: config.sandboxIdleTtl * 1000 };
    const worlds = new Worlds(shared, limits, root.scenario, seeds);
    worlds.rootWorld = await openWorld(shared, { ...root, id: null, sandboxes: worlds });
    return worlds;
  }

  /** The root world: the one a process starts with, and the one its state file is. */
  get root(): World {
    if (!this.rootWorld) throw new Error('the registry is used before its root world is open');
    return this.rootWorld;
  }

  get version(): number {
    return this.changes;
  }

  /** The isolated sandbox of this id, if it exists. */
  find(id: string): World | undefined {
    return this.worlds.get(id);
  }

  /**
   * The world of a request path: an isolated sandbox's for `/sandboxes/{id}/…` (its path inside it, `/` when none
   * is left), `missing` when no sandbox has that id; the root, with the path as it is, for every other path.
   */
  resolve(path: string): Resolved {
    if (!path.startsWith(ISOLATED_PATHS)) return { world: this.root, path };
    const end = path.indexOf('/', SEGMENT_START);
    const id = end === -1 ? path.slice(SEGMENT_START) : path.slice(SEGMENT_START, end);
    const world = this.worlds.get(id);
    if (!world) return { missing: id };
    return { world, path: end === -1 ? '/' : path.slice(end) };
  }

  async create(input: NewSandbox): Promise<SandboxCreated> {
    const { id, world } = await this.make(input);
    return {
      id,
      createdAt: new Date(world.createdAt).toISOString(),
      apiPath: `${world.prefix}${API_PREFIX}`,
      controlPath: `${world.prefix}${CONTROL_PREFIX}`,
      persistent: false,
    };
  }

  /**
   * Makes an isolated sandbox (`create`'s work): an id in use is 409 (before the limit: the caller's mistake is the
   * one to hear), one more than `--max-sandboxes` 429, a bad scenario or clock 400, each making nothing; asked while
   * the process stops, 503 and nothing made.
   */
  async make(input: NewSandbox): Promise<{ id: string; world: World }> {
    const { config } = this.shared;
    if (this.stopping) throw stoppingError();
    const id = input.id ?? this.freshId();
    const existing = this.worlds.get(id);
    // A rerun after a killed run names its sandbox again: `replace` drops the one left behind. One being made now
    // is nobody's leftover.
    if (existing && input.replace === true && !this.making.has(id)) this.drop(existing, 'deleted');
    else if (existing || this.making.has(id))
      throw new ApiError(409, `A sandbox named "${id}" exists already`, [
        { field: 'id', message: 'is in use' },
      ]);
    if (this.worlds.size + this.making.size >= this.limits.max)
      throw new ApiError(
        429,
        `At most ${this.limits.max} isolated sandboxes may exist at once (--max-sandboxes, SANDBOX_MAX_SANDBOXES): delete one with DELETE /__sandbox/sandboxes/{id}, or start the sandbox with a higher limit`,
      );
    const scenario = this.scenarioOf(input.scenario);
    const clock = clockOf(input.clock);
    const seed = input.seed ?? config.seed;
    this.making.add(id);
    try {
      const seeded = await this.seeds.get(seed);
      // A token key of its own, whatever its seed: a token of one sandbox is unknown in every other.
      const jwtSecret = randomBytes(32).toString('hex');
      const world = await openWorld(this.shared, {
        id,
        // In memory, with draws of its own (keys, ids, references): the same for the same seed and id, whatever
        // other sandboxes do.
        store: { file: null, compactAfterBytes: config.compactAfter, salt: saltOf(id) },
        uploads: null,
        seed,
        scenario,
        clock,
        initialState: async () => withMeta(seeded, jwtSecret, clock),
        sandboxes: this,
        startedAt: Date.now(),
        journalPool: this.journals,
      });
      if (this.stopping) {
        // The process stopped while this one was being made: it goes with the others.
        await world.close({ keepState: false });
        throw stoppingError();
      }
      this.worlds.set(id, world);
      this.changed();
      return { id, world };
    } finally {
      this.making.delete(id);
    }
  }

  list(): SandboxSummary[] {
    return [...this.worlds].map(([id, w]) => ({
      id,
      createdAt: new Date(w.createdAt).toISOString(),
      lastUsedAt: new Date(w.lastUsedAt).toISOString(),
      requests: w.requests,
    }));
  }

  remove(id: string): void {
    const world = this.worlds.get(id);
    if (!world) throw noSuchSandbox(id);
    this.drop(world, 'deleted');
  }

  /**
   * Drops every isolated sandbox unused for longer than `--sandbox-idle-ttl`, each with a log line. One in use (a
   * request, a drain, an event stream or a webhook delivery in flight) is never idle: its time counts from when the
   * last of them ended.
   */
  sweep(now = Date.now()): void {
    const ttl = this.limits.idleTtlMs;
    if (ttl === 0) return;
    for (const world of this.worlds.values())
      if (now - world.idleSince(now) >= ttl) this.drop(world, 'expired');
  }

  /**
   * The process stops: every isolated sandbox is dropped (nothing of theirs outlives it, one being made included),
   * then the root is closed with its state kept.
   */
  async close(): Promise<void> {
    this.stopping = true;
    for (const world of this.worlds.values()) this.drop(world, null);
    await this.rootWorld?.close({ keepState: true });
  }

  private drop(world: World, why: 'deleted' | 'expired' | null): void {
    if (world.id === null) return;
    this.worlds.delete(world.id);
    // Gone at once (`close` drops it before it resolves): its memory store has nothing to flush.
    void world.close({ keepState: false });
    this.changed();
    if (why) this.shared.log(sandboxDropped(world.id, why, this.limits.idleTtlMs, world.requests));
  }

  /** The registry changed: the dashboard's picker hears it; the sweeper runs while any sandbox exists. */
  private changed(): void {
    this.changes++;
    const ttl = this.limits.idleTtlMs;
    if (this.worlds.size > 0 && ttl > 0 && this.sweeper === null) {
      this.sweeper = setInterval(() => this.sweep(), Math.min(MAX_SWEEP_MS, Math.max(250, ttl / 4)));
      this.sweeper.unref();
    } else if (this.worlds.size === 0 && this.sweeper !== null) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /** A new id: `s-` and 10 hex digits, one no sandbox has. */
  private freshId(): string {
    for (;;) {
      const id = `s-${randomBytes(5).toString('hex')}`;
      if (!this.worlds.has(id) && !this.making.has(id)) return id;
    }
  }

  /** The start-up scenario asked for: a ready one by name (400 when there is none), an object, or the process's. */
  private scenarioOf(given: NewSandbox['scenario']): Scenario {
    if (given === undefined) return this.startup;
    const { library } = this.shared;
    if (typeof given === 'string') {
      const ready = library.get(given);
      if (ready) return ready;
      const said = library.unknown(given);
      throw new ApiError(400, `scenario: ${said}`, [{ field: 'scenario', message: said }]);
    }
    try {
      return library.resolve(given);
    } catch (error) {
      if (error instanceof ScenarioError)
        throw new ApiError(400, `scenario: ${error.message}`, [
          { field: 'scenario', message: error.message },
        ]);
      throw error;
    }
  }
}

/** The clock a sandbox starts with: frozen at the time given, or real time. */
function clockOf(given: string | undefined): ClockState {
  if (given === undefined) return { offsetMs: 0, frozenAt: null };
  const ms = Date.parse(given);
  if (!(ms >= START_OF_TIME_MS && ms <= END_OF_TIME_MS))
    throw new ApiError(400, `clock: ${given} is outside the clock's range (0000 to 9999)`, [
      { field: 'clock', message: 'is outside the clock’s range, 0000-01-01 to 9999-12-31' },
    ]);
  return { offsetMs: 0, frozenAt: ms };
}

/** The seeded state with a sandbox's own token key and start-up clock: every other record shared, frozen. */
function withMeta(seeded: StateDocument, jwtSecret: string, clock: ClockState): StateDocument {
  const meta = seeded.collections.meta.map((m) => ({ ...m, jwtSecret, clock }));
  return { ...seeded, collections: { ...seeded.collections, meta } };
}

/** A creation asked for, or finished, once the process is stopping. */
const stoppingError = () =>
  new ApiError(503, 'The sandbox is stopping: no isolated sandbox is made any more');
