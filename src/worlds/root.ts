import { dirname, join } from 'node:path';
import { upstreamUrl } from '../config.js';
import { REAL_TIME } from '../domain/clock.js';
import { compactionFailed, stateKept, takenOver, writeHealth } from '../log-events.js';
import type { StoreFileSystem } from '../store/file-system.js';
import { isFixtureState } from '../store/fixtures.js';
import { DriftReport } from '../upstream/drift.js';
import { shownUpstream } from '../upstream/proxy.js';
import type { RootOpening } from './registry.js';
import type { SeedStates } from './seed-states.js';
import type { WorldShared } from './world.js';

/** What the caller named itself (code's options, the CLI's flags and variables), as against a default. */
export interface CallerGave {
  seed?: number | undefined;
  fixtures?: string | undefined;
}

/**
 * How the root world opens: its state file (`--data`, or memory) with its uploads beside it, the fixtures' state of
 * the configured seed when there is no file yet, the start-up scenario (`--scenario`), and the drift report of
 * `--upstream`. `files` are the tests' stand-ins for the disk.
 */
export async function rootOpening(
  shared: WorldShared,
  seeds: SeedStates,
  given: CallerGave,
  files: { storeFs?: StoreFileSystem | undefined; probeIntervalMs?: number | undefined },
): Promise<RootOpening> {
  const { config, fixtures, library, log } = shared;
  const upstream = config.upstream === undefined ? undefined : upstreamUrl(config.upstream);
  return {
    store: {
      file: config.inMemory ? null : config.data,
      compactAfterBytes: config.compactAfter,
      fs: files.storeFs,
      probeIntervalMs: files.probeIntervalMs,
      isState: isFixtureState(fixtures),
      onCompactionError: (error) => log(compactionFailed(error)),
      onWriteHealth: (health) => log(writeHealth(health)),
      // Writes are refused from then on; the CLI stops the process (`store.whenTakenOver()`).
      onTakenOver: (error) => log(takenOver(error)),
    },
    uploads: config.inMemory ? null : join(dirname(config.data), 'uploads'),
    stateKept: (store) => {
      // Said only of what the caller gave, not of a default: a seed equal to the state's changes nothing, a fixtures
      // folder may (the state does not record which one made it).
      const stateSeed = store.meta().seed;
      const seed = given.seed !== undefined && config.seed !== stateSeed ? config.seed : null;
      const folder = given.fixtures !== undefined ? config.fixtures : null;
      if (seed !== null || folder !== null) log(stateKept(config.data, stateSeed, seed, folder));
    },
    seed: config.seed,
    scenario: await library.choose(config.scenario),
    clock: REAL_TIME,
    initialState: () => seeds.get(config.seed),
    startedAt: Date.now(),
    drift: new DriftReport(upstream ? shownUpstream(upstream) : null),
  };
}
