import type { StateDocument } from '../domain/records.js';
import type { Fixtures } from '../store/fixtures.js';
import { buildInitialState } from '../store/seed.js';
import { StringPool, settleRecord } from '../store/string-pool.js';

/** How many seeds' states are kept: a suite uses one or a few; more are built again when asked. */
const KEPT_SEEDS = 16;

/**
 * The fixtures' state of each seed, built once and shared by every sandbox of that seed: its records are frozen
 * (settled as the store settles what it holds), so a store loads them as they are, and a sandbox costs its maps and
 * indexes, not a copy of the records. The newest `KEPT_SEEDS` seeds are kept.
 */
export class SeedStates {
  private readonly built = new Map<number, Promise<StateDocument>>();
  private readonly strings = new StringPool();

  constructor(private readonly fixtures: Fixtures) {}

  /** The state of `seed`, frozen: share it, never change it (its meta record is the seed's, token key included). */
  get(seed: number): Promise<StateDocument> {
    let state = this.built.get(seed);
    if (state) {
      // The most recently used last, so the oldest goes first.
      this.built.delete(seed);
    } else {
      state = buildInitialState(this.fixtures, seed).then((doc) => this.freeze(doc));
      // A build that fails is not kept: the next ask tries again.
      state.catch(() => this.built.delete(seed));
    }
    this.built.set(seed, state);
    if (this.built.size > KEPT_SEEDS) {
      const oldest = this.built.keys().next().value;
      if (oldest !== undefined) this.built.delete(oldest);
    }
    return state;
  }

  private freeze(doc: StateDocument): StateDocument {
    // Shared by every world of the seed: a world copies out of it, and nothing may push into it.
    for (const records of Object.values(doc.collections)) {
      for (const record of records) settleRecord(record, this.strings);
      Object.freeze(records);
    }
    Object.freeze(doc.collections);
    return Object.freeze(doc);
  }
}
