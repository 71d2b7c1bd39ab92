import { dirname } from 'node:path';
import { Low, Memory } from 'lowdb';
import { ChangeLog, MemoryCollections, type StoreChange, type Tx } from './collections.js';
import { nodeFileSystem, type StoreFileSystem } from './file-system.js';
import { Journal } from './journal.js';
import type { StateDocument } from './records.js';
import { type Snapshot, SnapshotFile } from './snapshot-file.js';
import { readStateFiles, temporaryFiles } from './state-files.js';
import { StateLock, type StateLockOptions } from './state-lock.js';
import { asWriteError, type StoreWriteError } from './write-error.js';
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
  /** The state lock's probes and timing (tests choose pids, hosts and time); defaults fit real use. */
  lock?: StateLockOptions;
}

/**
 * A change applied in memory and not yet on disk: a journal line, or (`line` null) a whole new state that goes
 * to disk as a snapshot. Commits are written in the order they were made; when one fails, it and every commit
 * after it are undone, newest first, because each was made on top of the ones before.
 */
interface Commit {
  seq: number;
  line: string | null;
  state: Snapshot | null;
  undo: () => void;
  changes: readonly StoreChange[] | 'replaced';
  /** Settles once the commit is durable (or undone); never rejects, for waiters that only need to know. */
  settled: Promise<boolean>;
  resolve: () => void;
  reject: (error: StoreWriteError) => void;
}

/** What lowdb holds between snapshot writes: nothing (see `writeSnapshot`). */
const NO_SNAPSHOT: Snapshot = { version: 1, seq: 0, collections: {} as Snapshot['collections'] };

/**
 * The state: in memory, one Map per collection (`MemoryCollections`, whose reads the store is: inherited rather
 * than forwarded, as they are the hot path of every request), with a write-ahead journal on disk. A mutation runs
 * synchronously (so each read-check-write is atomic on Node's one thread), appends its changes to the journal
 * and resolves once they are fsynced; concurrent mutations share one write. A write that fails (a full disk, an
 * I/O error, a short write) undoes in memory every mutation not yet on disk and rejects each with a
 * `StoreWriteError`: what is acknowledged is on disk, and what is refused is not applied. The store then reports
 * itself unwritable and tries a small write of its own now and then, until writes work again.
 *
 * The snapshot (a lowdb document) is rewritten on reset and import (in the same order as the journal's writes,
 * so they too are all or nothing) and in the background when the journal grows past a threshold, from state
 * that is on disk already. Start-up checks the snapshot and the journal whole before it changes any file, then
 * loads the snapshot and replays the journal entries it does not contain yet.
 */
export class Store extends MemoryCollections {
  private journal: Journal | null = null;
  /** This process's hold on the state file; null in memory. */
  private lock: StateLock | null = null;
  private compaction: Promise<void> | null = null;
  /** Commits applied in memory and not yet durable, oldest first. */
  private queue: Commit[] = [];
  /** The write (or probe) in flight. */
  private flushing: Promise<void> | null = null;
  private paused = 0;
  private idleWaiters: (() => void)[] = [];
  /** Counts whole-state replacements and undos: a compaction that sees either change while it waits gives up. */
  private generation = 0;
  /** Snapshot writes, one at a time: a reset's and a compaction's must not overtake each other. */
  private snapshotLock: Promise<unknown> = Promise.resolve();
  private readonly health: WriteHealthMonitor;

  private constructor(
    private readonly options: StoreOptions,
    private readonly fs: StoreFileSystem,
    private readonly low: Low<Snapshot>,
  ) {
    super(options.isState);
    this.health = new WriteHealthMonitor({
      probe: () => this.probe(),
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
    const fs = options.fs ?? nodeFileSystem;
    if (options.file === null) {
      const store = new Store(options, fs, new Low<Snapshot>(new Memory<Snapshot>(), NO_SNAPSHOT));
      store.load(await options.initialState());
      return store;
    }
    await fs.mkdir(dirname(options.file));
    // Resolved once: a rename onto a link would replace the link with a regular file.
    const file = await fs.resolveLinks(options.file);
    if (file !== options.file) await fs.mkdir(dirname(file));
    const lock = await StateLock.acquire(fs, file, options.file, options.lock);
    try {
      const store = await Store.openFiles(options, fs, file);
      store.lock = lock;
      return store;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** `open`, once the state file (its real path) is this process's. */
  private static async openFiles(options: StoreOptions, fs: StoreFileSystem, file: string): Promise<Store> {
    const walPath = `${file}.wal`;
    const found = await readStateFiles(fs, file);
    for (const tmp of temporaryFiles(file)) await fs.remove(tmp);
    if (found.tornAt !== null) {
      // A line the last run was writing when it died: never acknowledged, and everything before it is whole.
      const wal = await fs.open(walPath, 'a+');
      try {
        await wal.truncate(found.tornAt);
        await wal.datasync();
      } finally {
        await wal.close();
      }
    }
    const store = new Store(options, fs, new Low<Snapshot>(new SnapshotFile(fs, file), NO_SNAPSHOT));
    if (found.snapshot === null) {
      store.load(await options.initialState());
      store.journal = await Journal.open(fs, walPath);
      await store.journal.clear();
      await store.writeSnapshot({ ...store.exportState(), seq: 0 });
      return store;
    }
    store.load(found.snapshot);
    store.seq = found.snapshot.seq;
    for (const entry of found.entries) store.replay(entry);
    store.journal = await Journal.open(fs, walPath);
    return store;
  }

  /**
   * Runs `fn` atomically: it must be synchronous. If it throws, every change it made is undone and the error
   * is rethrown. Otherwise resolves with its result once the changes are durable; if they cannot be written,
   * they are undone and it rejects with a `StoreWriteError`.
   */
  mutate<T>(fn: (tx: Tx) => T): Promise<T> {
    const log = new ChangeLog();
    const result = this.transact(fn, log);
    if (log.ops.length === 0) return Promise.resolve(result);
    this.seq++;
    if (!this.journal) {
      this.emit(log.changes);
      return Promise.resolve(result);
    }
    const line = `{"q":${this.seq},"o":[${log.ops.join(',')}]}\n`;
    const durable = this.commit(this.seq, line, null, () => log.undo(), log.changes);
    this.emit(log.changes);
    if (this.journal.size > this.options.compactAfterBytes && !this.compaction) this.startCompaction();
    return durable.then(() => result);
  }

  /**
   * Replaces the whole state (reset, import) and makes it durable as a new snapshot. The document's records become
   * the state's, frozen: the caller hands them over. If the snapshot cannot be written, the old state comes back
   * (with every change made on top of the new one meanwhile undone) and it rejects with a `StoreWriteError`.
   */
  async replaceState(doc: StateDocument): Promise<void> {
    const undo = this.replace(doc);
    this.seq++;
    if (!this.journal) {
      this.emit('replaced');
      return;
    }
    const state: Snapshot = { ...this.exportState(), seq: this.seq };
    const durable = this.commit(this.seq, null, state, undo, 'replaced');
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

  /** Resolves once every acknowledged change is on disk and no compaction runs. */
  async idle(): Promise<void> {
    while (this.compaction) await this.compaction;
    if (this.queue.length === 0 && !this.flushing) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Flushes and closes the files, and lets go of the state file (removes its lock). */
  async close(): Promise<void> {
    await this.idle();
    this.health.stopProbing();
    await this.journal?.close();
    this.journal = null;
    await this.lock?.release();
    this.lock = null;
  }

  /** Journal figures: bytes in the file now, and fsynced writes since start (0 in memory). */
  stats(): { journalBytes: number; journalFlushes: number; seq: number } {
    return {
      journalBytes: this.journal?.size ?? 0,
      journalFlushes: this.journal?.flushes ?? 0,
      seq: this.seq,
    };
  }

  /** Queues a commit for the disk; resolves once it is durable, rejects once it was undone. */
  private commit(
    seq: number,
    line: string | null,
    state: Snapshot | null,
    undo: () => void,
    changes: readonly StoreChange[] | 'replaced',
  ): Promise<void> {
    let resolve = () => {};
    let reject: (error: StoreWriteError) => void = () => {};
    const durable = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const settled = durable.then(
      () => true,
      () => false,
    );
    this.queue.push({ seq, line, state, undo, changes, settled, resolve, reject });
    this.kick();
    return durable;
  }

  /** Starts the next write if none is in flight and nothing holds the files. */
  private kick(): void {
    if (this.flushing || this.paused > 0) return;
    if (this.queue.length === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.flushing = this.flushHead().finally(() => {
      this.flushing = null;
      this.kick();
    });
  }

  /**
   * Writes the oldest commits: every journal line up to the next whole-state replacement in one write, or that
   * replacement alone as a snapshot. A failure undoes them and everything queued after them.
   */
  private async flushHead(): Promise<void> {
    const journal = this.journal;
    const head = this.queue[0];
    if (!journal || !head) return;
    let taken = 1;
    try {
      if (head.state) {
        await this.writeReplacement(journal, head.state);
      } else {
        while (this.queue[taken]?.line) taken++;
        await journal.write(this.queue.slice(0, taken).map((c) => c.line ?? ''));
      }
    } catch (error) {
      this.rollBack(asWriteError(error));
      return;
    }
    const written = this.queue.splice(0, taken);
    this.health.markWritable();
    for (const c of written) c.resolve();
  }

  /** A reset's or import's snapshot; once it is in place, the journal's older entries are obsolete. */
  private async writeReplacement(journal: Journal, state: Snapshot): Promise<void> {
    await this.withSnapshotLock(async () => {
      await this.writeSnapshot(state);
      // Inside the lock, so that a compaction waiting for it sees the state was replaced.
      this.generation++;
    });
    // Every entry in the journal now is older than the snapshot: a failed clear leaves them to be skipped at load.
    await journal.clear().catch(() => undefined);
  }

  /**
   * Writes `state` as the snapshot. lowdb keeps what it last wrote as its `data`; let go of it once written, or
   * every record replaced or deleted since stays alive until the next snapshot: after the soak benchmark's last
   * compaction, a whole backlog of webhook deliveries long delivered and pruned.
   */
  private async writeSnapshot(state: Snapshot): Promise<void> {
    this.low.data = state;
    try {
      await this.low.write();
    } finally {
      this.low.data = NO_SNAPSHOT;
    }
  }

  /** Undoes every commit not on disk, newest first, and refuses each with `error`. */
  private rollBack(error: StoreWriteError): void {
    const undone = this.queue.splice(0);
    const first = undone[0];
    if (!first) return;
    for (let i = undone.length - 1; i >= 0; i--) undone[i]?.undo();
    this.seq = first.seq - 1;
    this.generation++;
    this.health.markUnwritable(error);
    const replaced = undone.some((c) => c.changes === 'replaced');
    this.emit(replaced ? 'replaced' : undone.flatMap((c) => c.changes as readonly StoreChange[]));
    for (const c of undone) c.reject(error);
  }

  /** While writes fail and nobody is writing: a small write of our own, to learn that they work again. */
  private probe(): void {
    const journal = this.journal;
    if (!journal || this.flushing || this.paused > 0 || this.queue.length > 0) return;
    this.flushing = journal
      .probe()
      .then(
        () => this.health.markWritable(),
        () => undefined,
      )
      .finally(() => {
        this.flushing = null;
        this.kick();
      });
  }

  /** Runs `fn` with no journal write in flight and none starting; commits made meanwhile wait for it. */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.paused++;
    try {
      while (this.flushing) await this.flushing;
      return await fn();
    } finally {
      this.paused--;
      this.kick();
    }
  }

  private withSnapshotLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.snapshotLock.then(fn);
    this.snapshotLock = run.catch(() => undefined);
    return run;
  }

  private startCompaction(): void {
    this.compaction = this.compact()
      .catch((error: unknown) => this.options.onCompactionError?.(error))
      .finally(() => {
        this.compaction = null;
      });
  }

  /**
   * Rewrites the snapshot from the state as it is now, once all of it is on disk, then drops the journal entries
   * it holds. If any of it is undone meanwhile, or a reset or import replaces the state, it gives up: the journal
   * still holds everything, and the next mutation past the threshold tries again.
   */
  private async compact(): Promise<void> {
    const journal = this.journal;
    if (!journal) return;
    const generation = this.generation;
    const state: Snapshot = { ...this.exportState(), seq: this.seq };
    // Everything in the file now is at or below `state.seq`: only what comes after it needs reading back.
    const coveredBytes = journal.size;
    const last = this.queue.at(-1);
    if (last && !(await last.settled)) return;
    const written = await this.withSnapshotLock(async () => {
      if (this.generation !== generation) return false;
      await this.writeSnapshot(state);
      return true;
    });
    // Outside the snapshot lock: a reset waiting for that lock may be the write in flight `exclusive` waits for.
    if (!written) return;
    await this.exclusive(async () => {
      if (this.generation === generation) await journal.dropThrough(state.seq, coveredBytes);
    });
  }
}
