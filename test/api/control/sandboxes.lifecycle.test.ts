import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config.js';
import { REAL_TIME, systemClock } from '../../../src/domain/clock.js';
import type { StateDocument } from '../../../src/domain/records.js';
import type { LogEvent } from '../../../src/log.js';
import { embeddedScenariosDir, ScenarioLibrary } from '../../../src/scenarios/library.js';
import { loadFixtures } from '../../../src/store/fixtures.js';
import { openWorld, type WorldOpening } from '../../../src/worlds/open.js';
import { Worlds } from '../../../src/worlds/registry.js';
import { SeedStates } from '../../../src/worlds/seed-states.js';
import type { World, WorldShared } from '../../../src/worlds/world.js';

// A world's whole life, as the root and every isolated sandbox live it: opened (`openWorld`), the work its state left
// open resumed, found by its paths (`Worlds.resolve`), and ended (`close({ keepState })`).

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What every world of a test process shares, its log lines kept in `lines`. */
async function theProcess(data: string | null = null) {
  const config = resolveConfig({ port: 0, quiet: true, ...(data ? { data } : { inMemory: true }) });
  const fixtures = await loadFixtures(config.fixtures);
  const library = await ScenarioLibrary.load(embeddedScenariosDir, fixtures.nibss);
  const lines: LogEvent[] = [];
  const shared: WorldShared = {
    config,
    fixtures,
    library,
    log: (entry) => {
      if (typeof entry !== 'string') lines.push(entry);
    },
    requestLog: null,
    ownPort: () => null,
    timeSource: systemClock,
    version: 'test',
  };
  const seeds = new SeedStates(fixtures);
  const scenario = await library.choose(config.scenario);
  /** An opening from `initialState` (the fixtures' by default), in memory unless the process has a state file. */
  const opening = (initialState = () => seeds.get(config.seed)): Omit<WorldOpening, 'id' | 'sandboxes'> => ({
    store: { file: config.inMemory ? null : config.data, compactAfterBytes: config.compactAfter },
    uploads: null,
    seed: config.seed,
    scenario,
    clock: REAL_TIME,
    initialState,
    startedAt: Date.now(),
  });
  const open = async (initialState?: () => Promise<StateDocument>) => {
    const worlds = await Worlds.open(shared, seeds, opening(initialState));
    cleanups.push(() => worlds.close());
    return worlds;
  };
  return { shared, seeds, lines, opening, open, config };
}

/** The fixtures' state with their batch left `processing` and its items `pending`, as a run killed in it leaves it. */
async function leftOpen(seeds: SeedStates, seed: number): Promise<StateDocument> {
  const doc = await seeds.get(seed);
  const { bulkTransfers, bulkItems } = doc.collections;
  expect(bulkTransfers.length).toBeGreaterThan(0);
  return {
    ...doc,
    collections: {
      ...doc.collections,
      bulkTransfers: bulkTransfers.map((b) => ({ ...b, status: 'processing' as const })),
      bulkItems: bulkItems.map((i) => ({ ...i, status: 'pending' as const })),
    },
  };
}

const processing = (world: World) =>
  world.deps.store.all('bulkTransfers').filter((b) => b.status === 'processing').length;

describe('openWorld', () => {
  it('resumes the batch its state left processing, and says so, in an isolated world as in the root', async () => {
    const { seeds, lines, open, opening, shared, config } = await theProcess();
    const state = await leftOpen(seeds, config.seed);
    const items = state.collections.bulkItems.length;
    const worlds = await open(async () => state);
    const isolated = await openWorld(shared, {
      ...opening(async () => state),
      id: 'left-over',
      sandboxes: worlds,
    });
    cleanups.push(() => isolated.close({ keepState: false }));

    const resumed = lines.filter((line) => line.event === 'sandbox.resumed');
    expect(resumed.map((line) => line.fields)).toEqual([
      expect.objectContaining({ bulkItems: items, deliveries: 0 }),
      expect.objectContaining({ bulkItems: items, deliveries: 0, sandbox: 'left-over' }),
    ]);
    expect(resumed[0]?.fields).not.toHaveProperty('sandbox');
    for (const world of [worlds.root, isolated]) {
      await world.control.drain({ timeoutMs: 30_000 });
      expect(processing(world)).toBe(0);
    }
  });

  it('resumes nothing, and says nothing, from the fixtures', async () => {
    const { lines, open } = await theProcess();
    await open();
    expect(lines.filter((line) => line.event === 'sandbox.resumed')).toEqual([]);
  });
});

describe('close', () => {
  it('with keepState, flushes the state to its file: the next opening finds it, and says that it kept it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lifecycle-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const { shared, opening } = await theProcess(join(dir, 'db.json'));
    const first = await openWorld(shared, { ...opening(), id: null, sandboxes: stubRegistry() });
    await first.deps.clock.freeze();
    const frozenAt = first.deps.clock.state().frozenAt;
    await first.close({ keepState: true });
    expect(first.gone).toBe(false);

    let kept = false;
    const second = await openWorld(shared, {
      ...opening(),
      id: null,
      sandboxes: stubRegistry(),
      stateKept: () => {
        kept = true;
      },
    });
    cleanups.push(() => second.close({ keepState: true }));
    expect(kept).toBe(true);
    expect(second.deps.clock.state().frozenAt).toBe(frozenAt);
  });

  it('without keepState, drops the world before it resolves: a drain asked of it then is told it was deleted', async () => {
    const { open, opening, shared } = await theProcess();
    const worlds = await open();
    const world = await openWorld(shared, { ...opening(), id: 'doomed', sandboxes: worlds });
    const closing = world.close({ keepState: false });
    expect(world.gone).toBe(true);
    await closing;
    await expect(world.control.drain({ timeoutMs: 30_000 })).rejects.toMatchObject({
      status: 410,
      message: 'Sandbox "doomed" was deleted',
    });
  });

  it('of the registry, drops every isolated world and closes the root with its state kept', async () => {
    const { open } = await theProcess();
    const worlds = await open();
    const { world } = await worlds.make({ id: 'one' });
    await worlds.close();
    expect(world.gone).toBe(true);
    expect(worlds.root.gone).toBe(false);
    await expect(worlds.make({ id: 'two' })).rejects.toMatchObject({ status: 503 });
  });
});

describe('Worlds.resolve', () => {
  it('answers the root, with the path as it is, for every path outside /sandboxes/{id}', async () => {
    const { open } = await theProcess();
    const worlds = await open();
    for (const path of ['/api/v1/clients/business', '/__sandbox/health', '/', '/sandboxes', '/sandboxesx/a'])
      expect(worlds.resolve(path)).toEqual({ world: worlds.root, path });
  });

  it('answers an isolated world with its path inside it, and the id alone of one that does not exist', async () => {
    const { open } = await theProcess();
    const worlds = await open();
    const { world } = await worlds.make({ id: 'here' });
    expect(worlds.resolve('/sandboxes/here/api/v1/x')).toEqual({ world, path: '/api/v1/x' });
    expect(worlds.resolve('/sandboxes/here')).toEqual({ world, path: '/' });
    expect(worlds.resolve('/sandboxes/gone/__sandbox/health')).toEqual({ missing: 'gone' });
  });
});

/** A registry of isolated sandboxes for a world opened on its own: it lists none. */
function stubRegistry(): WorldOpening['sandboxes'] {
  return {
    create: () => Promise.reject(new Error('no isolated sandbox here')),
    list: () => [],
    remove: () => undefined,
    version: 0,
  };
}
