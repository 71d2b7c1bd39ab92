import type { StateDocument } from '../domain/records.js';
import { ChangeLog, MemoryCollections, type Tx } from './collections.js';
import { Durability, type StateInMemory } from './durability.js';
import { nodeFileSystem, type StoreFileSystem } from './file-system.js';
import type { Snapshot } from './snapshot-file.js';
import type { StateLockOptions } from './state-lock.js';
import type { StateTakenOverError } from './write-error.js';
import { type WriteHealth, WriteHealthMonitor } from './write-health.js';

export type { StoreChange, StoreListener, Tx } from './collections.js';
export type { WriteHealth } from './write-health.js';

export interface StoreOptions {
  /**
   * Snapshot file; its journal is the same path with `.wal` appended, its lock `.lock`. A symbolic link stays one:
   * every file is written beside its target. Null keeps everything in memory, with no lock.
   */
  file: string | null;
  /** Journal size in bytes past which the snapshot is rewritten (in the background) and the journal emptied. */
  compactAfterBytes: number;
  /** The state to start from when there is no file yet. */
  initialState: () => Promise<StateDocument>;
  /** Told about a failed background compaction (the journal keeps everything, so nothing is lost). */
  onCompactionError?: (error: unknown) => void;
  /** Told when writes start failing, and when they work again. */
  onWriteHealth?: (health: WriteHealth) => void;
  /** The file operations (tests put a failing layer here); default `node:fs`. */
  fs?: StoreFileSystem;
  /** While writes fail, how often the store tries a small write of its own to learn that they work again. */
  probeIntervalMs?: number;
  /**
   * Whether a state id is one of the fixtures', for bringing a state written by an earlier version up to date
   * (`upgrade.ts`); without it, every id counts as one and none is renamed.
   */
  isState?: (id: string) => boolean;
  /**
   * Mixed into the state's seed for the draws of every mutation (keys, ids, references): an isolated sandbox's own
   * (`saltOf` its id), so that sandboxes of one seed never draw the same keys. Default 0, the seed alone.
   */
  salt?: number;
  /** The state lock's probes and timing (tests choose pids, hosts and time); defaults fit real use. */
  lock?: StateLockOptions;
  /**
   * Told once the state file is found to be no longer this process's (its lock removed, or taken over by another
   * process after this one was paused past the staleness window): from then on every write is refused with a
   * `StateTakenOverError` (503) and nothing more is written; reads go on. See also `whenTakenOver`.
   */
  onTakenOver?: (error: StateTakenOverError) => void;
}

/**
 * The state: in memory, one Map per collection (`MemoryCollections`, whose reads the store is), with a
 * write-ahead journal on disk (`Durability`) and its write health (`WriteHealthMonitor`). A mutation runs
 * synchronously (so each read-check-write is atomic on Node's one thread), appends its changes to the journal
 * and resolves once they are fsynced; concurrent mutations share one write. A write that fails undoes in memory
 * every mutation not yet on disk and rejects each with a `StoreWriteError`: what is acknowledged is on disk, and
 * what is refused is not applied. The store then reports itself unwritable until writes work again.
 *
 * The reads are the collections' own methods, inherited rather than forwarded: they are the hot path of every
 * request, and the facade adds no call to them. In memory (`file` null) there is no durability part: a mutation
 * is done once it has run.
 */
export class Store extends MemoryCollections {
  /** The files; null in memory, and once closed. */
  private durability: Durability | null = null;
  private readonly health: WriteHealthMonitor;
  /** Set once the state file is no longer this process's: every write is refused with it from then on. */
  private lost: StateTakenOverError | null = null;
  private readonly takenOver: Promise<StateTakenOverError>;
  private tellTakenOver: (error: StateTakenOverError) => void = () => {};

  private constructor(options: StoreOptions) {
    super(options.isState, options.file !== null, options.salt);
    this.takenOver = new Promise((resolve) => {
      this.tellTakenOver = resolve;
    });
    this.health = new WriteHealthMonitor({
      probe: () => this.durability?.probe(),
      probeIntervalMs: options.probeIntervalMs,
      onWriteHealth: options.onWriteHealth,
    });
  }

  /**
   * Opens (or creates from `initialState`) the store. The state file is locked first (see `StateLock`): when
   * another process holds it, a `StateFileInUseError` is thrown and nothing on disk has changed. The files are
   * checked whole next: a snapshot that is not a sandbox state, a journal without its snapshot or a journal entry
   * of the wrong shape throws a `StateFileError` and leaves every file as it was (the lock is taken back). Only
   * then are a torn last journal line and stale temporary files removed.
   */
  static async open(options: StoreOptions): Promise<Store> {
    const store = new Store(options);
    if (options.file === null) {
      store.load(await options.initialState());
      return store;
    }
    const state: StateInMemory = {
      load: (doc, seq) => {
        store.load(doc);
        store.seq = seq;
      },
      replay: (entry) => store.replay(entry),
      capture: () => store.capture(),
      rewind: (seq) => {
        store.seq = seq;
      },
      emit: (changes) => store.emit(changes),
    };
    store.durability = await Durability.open(
      {
        file: options.file,
        compactAfterBytes: options.compactAfterBytes,
        initialState: options.initialState,
        onCompactionError: options.onCompactionError,
        fs: options.fs ?? nodeFileSystem,
        lock: options.lock,
        onTakenOver: (error) => {
          store.lost = error;
          store.tellTakenOver(error);
          options.onTakenOver?.(error);
        },
      },
      state,
      store.health,
    );
    return store;
  }

  /**
   * Runs `fn` atomically: it must be synchronous. If it throws, every change it made is undone and the error
   * is rethrown. Otherwise resolves with its result once the changes are durable; if they cannot be written,
   * they are undone and it rejects with a `StoreWriteError`.
   */
  mutate<T>(fn: (tx: Tx) => T): Promise<T> {
    // Refused before it runs: nothing of it is applied, as nothing of it could be written.
    if (this.lost) return Promise.reject(this.lost);
    const log = new ChangeLog();
    const result = this.transact(fn, log);
    if (log.ops.length === 0) return Promise.resolve(result);
    this.seq++;
    const durability = this.durability;
    if (!durability) {
      this.emit(log.changes);
      return Promise.resolve(result);
    }
    const durable = durability.append(this.seq, log.ops, () => log.undo(), log.changes);
    this.emit(log.changes);
    durability.compactIfDue();
    return durable.then(() => result);
  }

  /**
   * Replaces the whole state (reset, import) and makes it durable as a new snapshot. The document's records become
   * the state's, frozen: the caller hands them over. If the snapshot cannot be written, the old state comes back
   * (with every change made on top of the new one meanwhile undone) and it rejects with a `StoreWriteError`.
   */
  async replaceState(doc: StateDocument): Promise<void> {
    if (this.lost) throw this.lost;
    const undo = this.replace(doc);
    this.seq++;
    const durability = this.durability;
    if (!durability) {
      this.emit('replaced');
      return;
    }
    const durable = durability.replace(this.seq, this.capture(), undo);
    this.emit('replaced');
    await durable;
  }

  /** Whether changes can be written now; when not, the error and since when. */
  writeHealth(): WriteHealth {
    return this.health.current();
  }

  /** Resolves once writes work (at once when they do). */
  whenWritable(): Promise<void> {
    return this.health.whenWritable();
  }

  /**
   * Resolves once the state file is found to be no longer this process's (see `onTakenOver`); never while it is.
   * The CLI stops the process then.
   */
  whenTakenOver(): Promise<StateTakenOverError> {
    return this.takenOver;
  }

  /** Resolves once every acknowledged change is on disk and no compaction runs. */
  async idle(): Promise<void> {
    await this.durability?.idle();
  }

  /** Flushes and closes the files, and lets go of the state file (removes its lock). */
  async close(): Promise<void> {
    await this.idle();
    this.health.stopProbing();
    await this.durability?.close();
    this.durability = null;
  }

  /** Journal figures: bytes in the file now, and fsynced writes since start (0 in memory). */
  stats(): { journalBytes: number; journalFlushes: number; seq: number } {
    return {
      journalBytes: this.durability?.journalBytes ?? 0,
      journalFlushes: this.durability?.journalFlushes ?? 0,
      seq: this.seq,
    };
  }

  /** The whole state as the snapshot of its last commit. */
  private capture(): Snapshot {
    return { ...this.exportState(), seq: this.seq };
  }
}
