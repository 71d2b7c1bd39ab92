import { resumed } from '../log-events.js';
import { Store, type StoreOptions } from '../store/store.js';
import { Uploads } from '../store/uploads.js';
import { buildWorld, type World, type WorldShared, type WorldSpec } from './world.js';

/** What opens a world: its spec but the store and uploads, which `openWorld` opens from what is given here. */
export interface WorldOpening extends Omit<WorldSpec, 'store' | 'uploads'> {
  /**
   * The store's settings but its first state, which is the spec's `initialState` (the one a reset brings back):
   * `file` null keeps it in memory.
   */
  store: Omit<StoreOptions, 'initialState'>;
  /** The folder of its uploaded files; null keeps them in memory. */
  uploads: string | null;
  /** Told when the store found a state of an earlier run and kept it, rather than starting from `initialState`. */
  stateKept?: (store: Store) => void;
}

/**
 * Opens one world, the root as every isolated one: its store (from its file, or from `initialState`) and uploads,
 * the world built on them, and the work its state left open (bulk items, webhook deliveries, what is due later)
 * resumed and logged. `close({ keepState })` ends what this opens.
 */
export async function openWorld(shared: WorldShared, opening: WorldOpening): Promise<World> {
  const { store: settings, uploads, stateKept, ...spec } = opening;
  let builtNow = false;
  const store = await Store.open({
    ...settings,
    initialState: () => {
      builtNow = true;
      return spec.initialState();
    },
  });
  if (!builtNow) stateKept?.(store);
  const world = buildWorld(shared, { ...spec, store, uploads: new Uploads(uploads) });
  const { bulk, webhooks, later } = world.engines;
  const items = bulk.resume();
  const deliveries = webhooks.resume();
  // Reversals, refunds and late duplicates the state holds run at their moment, each once.
  later.resume();
  if (items > 0 || deliveries > 0) world.deps.log(resumed(items, deliveries));
  return world;
}
