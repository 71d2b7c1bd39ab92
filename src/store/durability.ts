import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import type { StateDocument } from '../domain/records.js';
import type { StoreChange } from './collections.js';
import { replaceFile, type StoreFileSystem, writeFully } from './file-system.js';
import { Journal, type JournalEntry } from './journal.js';
import { type Snapshot, SnapshotFile } from './snapshot-file.js';
import { readStateFiles, type StateFiles, temporaryFiles } from './state-files.js';
import { StateLock, type StateLockOptions } from './state-lock.js';
import {
  asWriteError,
  isWriteFailureCode,
  type StateTakenOverError,
  type StoreWriteError,
} from './write-error.js';
import type { WriteHealthMonitor } from './write-health.js';

/** The files of a state and how they are kept. */
export interface DurabilityOptions {
  /**
   * Snapshot file; its journal is the same path with `.wal` appended, its lock `.lock`. A symbolic link stays one:
   * every file is written beside its target.
   */
  file: string;
  /** Journal size in bytes past which the snapshot is rewritten (in the background) and the journal emptied. */
  compactAfterBytes: number;
  /** The state to start from when there is no file yet. */
  initialState: () => Promise<StateDocument>;
  /** Told about a failed background compaction (the journal keeps everything, so nothing is lost). */
  onCompactionError?: (error: unknown) => void;
  /** The file operations (tests put a failing layer here). */
  fs: StoreFileSystem;
  /** The state lock's probes and timing (tests choose pids, hosts and time); defaults fit real use. */
  lock?: StateLockOptions;
  /**
   * Told once the state file is found to be no longer this process's (see `StateTakenOverError`): from then on
   * every write is refused.
   */
  onTakenOver?: (error: StateTakenOverError) => void;
}

/** What durability does to the state in memory: fills it at start, reads it for a snapshot, winds it back. */
export interface StateInMemory {
  /** Makes `doc` the whole state, as of the commit numbered `seq`. */
  load(doc: Pick<StateDocument, 'collections'>, seq: number): void;
  /** Applies a journal entry, unless the state holds it already. */
  replay(entry: JournalEntry): void;
  /** The whole state now, with the sequence number of its last commit. */
  capture(): Snapshot;
  /** Makes `seq` the sequence number of the last commit again (the ones after it were undone). */
  rewind(seq: number): void;
  /** Tells the listeners of changes undone. */
  emit(changes: readonly StoreChange[] | 'replaced'): void;
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

/**
 * The state's files: a write-ahead journal, a snapshot, and the lock that makes them this process's. Each commit
 * is appended to the journal and acknowledged once it is fsynced; commits queued while a write is in flight share
 * the next one. A write that fails (a full disk, an I/O error, a short write) undoes in memory every commit not yet
 * on disk and rejects each with a `StoreWriteError`: what is acknowledged is on disk, and what is refused is not
 * applied. The write health is then unwritable, and its probe (`probe`) tries a small write now and then.
 *
 * The snapshot is rewritten on reset and import (in the same order as the journal's writes, so they too are all or
 * nothing) and in the background when the journal grows past a threshold, from state that is on disk already. It
 * is written through its lowdb adapter (`SnapshotFile`). Start-up checks the snapshot and the journal whole before
 * it changes any file, then loads the snapshot and replays the journal entries it does not contain yet.
 *
 * Fenced by its lock (`StateLock`): a write is made only once the lock path was found to be still this process's
 * lock, and acknowledged only once it is on disk and the lock was found so again (a `stat` of the lock's path
 * after each write, shared by every commit of a group, and one before a write that does not follow another at
 * once); a snapshot or a rewritten journal is renamed into place only after the same check. Once the lock is lost, every commit not yet acknowledged, and every one after, is refused
 * with a `StateTakenOverError`, and nothing more is written: only the write on its way when the lock was lost may
 * have reached the disk. At start-up the journal is copied to a new file, so that a previous holder that runs
 * again (paused past the staleness window, its lock taken over) and finishes the write it was paused in appends
 * to a file nobody reads any more, not to this process's journal.
 */
export class Durability {
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
  /** Set once the state file is no longer this process's: every write is refused from then on. */
  private lost: StateTakenOverError | null = null;

  private constructor(
    private readonly options: DurabilityOptions,
    private readonly state: StateInMemory,
    private readonly health: WriteHealthMonitor,
    private readonly journal: Journal,
    private readonly snapshot: Adapter<Snapshot>,
    /** This process's hold on the state file. */
    private readonly lock: StateLock,
  ) {
    lock.onLost((error) => this.fence(error));
  }

  /**
   * Opens the state's files and fills `state` from them (or from `initialState` when there are none). The state
   * file is locked first (see `StateLock`): when another process holds it, a `StateFileInUseError` is thrown and
   * nothing on disk has changed. The files are checked whole next: a snapshot that is not a sandbox state, a
   * journal without its snapshot or a journal entry of the wrong shape throws a `StateFileError` and leaves every
   * file as it was (the lock is taken back). Only then are a torn last journal line and stale temporary files
   * removed.
   */
  static async open(
    options: DurabilityOptions,
    state: StateInMemory,
    health: WriteHealthMonitor,
  ): Promise<Durability> {
    const { fs } = options;
    await fs.mkdir(dirname(options.file));
    // Resolved once: a rename onto a link would replace the link with a regular file.
    const file = await fs.resolveLinks(options.file);
    if (file !== options.file) await fs.mkdir(dirname(file));
    const lock = await StateLock.acquire(fs, file, options.file, options.lock);
    try {
      return await Durability.openFiles(options, state, health, file, lock);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** `open`, once the state file (its real path) is this process's. */
  private static async openFiles(
    options: DurabilityOptions,
    state: StateInMemory,
    health: WriteHealthMonitor,
    file: string,
    lock: StateLock,
  ): Promise<Durability> {
    const { fs } = options;
    const walPath = `${file}.wal`;
    const found = await readStateFiles(fs, file);
    for (const tmp of temporaryFiles(file)) await fs.remove(tmp);
    await freshJournal(fs, walPath, found);
    const confirm = () => lock.confirm();
    const snapshot = new SnapshotFile(fs, file, confirm);
    const journal = await Journal.open(fs, walPath, confirm);
    if (found.snapshot === null) {
      state.load(await options.initialState(), 0);
      const durability = new Durability(options, state, health, journal, snapshot, lock);
      await durability.writeSnapshot(state.capture());
      return durability;
    }
    state.load(found.snapshot, found.snapshot.seq);
    for (const entry of found.entries) state.replay(entry);
    return new Durability(options, state, health, journal, snapshot, lock);
  }

  /** Bytes in the journal file now. */
  get journalBytes(): number {
    return this.journal.size;
  }

  /** fsynced journal writes since start. */
  get journalFlushes(): number {
    return this.journal.flushes;
  }

  /**
   * Queues the commit numbered `seq` (its changes as journal text, `ops`) for the journal; resolves once it is
   * durable, rejects with a `StoreWriteError` once it was undone with `undo`.
   */
  append(
    seq: number,
    ops: readonly string[],
    undo: () => void,
    changes: readonly StoreChange[],
  ): Promise<void> {
    return this.commit(seq, `{"q":${seq},"o":[${ops.join(',')}]}\n`, null, undo, changes);
  }

  /**
   * Queues a whole new state, commit `seq`, for the disk as a snapshot; resolves once it is durable, rejects with a
   * `StoreWriteError` once the old state was put back with `undo`.
   */
  replace(seq: number, state: Snapshot, undo: () => void): Promise<void> {
    return this.commit(seq, null, state, undo, 'replaced');
  }

  /** Starts a compaction in the background if the journal has grown past the threshold and none runs. */
  compactIfDue(): void {
    if (this.lost) return;
    if (this.journal.size > this.options.compactAfterBytes && !this.compaction) this.startCompaction();
  }

  /** Resolves once every acknowledged change is on disk and no compaction runs. */
  async idle(): Promise<void> {
    while (this.compaction) await this.compaction;
    if (this.queue.length === 0 && !this.flushing) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Closes the journal and lets go of the state file (removes its lock); call once `idle`. */
  async close(): Promise<void> {
    await this.journal.close();
    await this.lock.release();
  }

  /** While writes fail and nobody is writing: a small write of our own, to learn that they work again. */
  probe(): void {
    if (this.lost || this.flushing || this.paused > 0 || this.queue.length > 0) return;
    this.flushing = this.journal
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

  /**
   * Starts the next write if none is in flight and nothing holds the files. `confirmed`: called the moment the write
   * before found the lock still ours, once on disk (so the next one need not ask again before it writes).
   */
  private kick(confirmed = false): void {
    if (this.flushing || this.paused > 0) return;
    if (this.queue.length === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.flushing = this.flushHead(confirmed).then((done) => {
      this.flushing = null;
      this.kick(done);
    });
  }

  /**
   * Writes the oldest commits: every journal line up to the next whole-state replacement in one write, or that
   * replacement alone as a snapshot. A failure undoes them and everything queued after them. Answers whether the
   * lock was found still ours once they were on disk (and so acknowledged). `confirmed`: the write before found
   * so a moment ago.
   */
  private async flushHead(confirmed: boolean): Promise<boolean> {
    const head = this.queue[0];
    if (!head) return false;
    // Nothing more is written once the files may be another process's.
    if (this.lost) {
      this.rollBack(this.lost);
      return false;
    }
    let taken = 1;
    try {
      if (head.state) {
        // Its snapshot goes in place only after the same check (see `SnapshotFile`).
        await this.writeReplacement(head.state);
      } else {
        while (this.queue[taken]?.line) taken++;
        // Checked before the write, so that a lock lost while nothing was being written (removed by hand, taken
        // over during a pause) keeps the refused commits off the disk too. Under load, writes follow each other
        // back to back, and the check that ended the one before stands for this one: one stat a write, not two.
        if (!confirmed) await this.lock.confirm();
        await this.journal.write(this.queue.slice(0, taken).map((c) => c.line ?? ''));
      }
      // Checked again once the write is on disk, and before it is acknowledged: a process that takes the lock over
      // after this check reads the journal after it too, and finds the write there.
      await this.lock.confirm();
    } catch (error) {
      this.rollBack(asWriteError(error));
      return false;
    }
    const written = this.queue.splice(0, taken);
    this.health.markWritable();
    for (const c of written) c.resolve();
    return true;
  }

  /** A reset's or import's snapshot; once it is in place, the journal's older entries are obsolete. */
  private async writeReplacement(state: Snapshot): Promise<void> {
    await this.withSnapshotLock(async () => {
      await this.writeSnapshot(state);
      // Inside the lock, so that a compaction waiting for it sees the state was replaced.
      this.generation++;
    });
    // Every entry in the journal now is older than the snapshot: a failed clear leaves them to be skipped at load.
    await this.journal.clear().catch(() => undefined);
  }

  /**
   * Writes `state` as the snapshot, straight through its adapter. Not through a lowdb `Low`: a `Low` keeps what it
   * last wrote as its `data`, and with it every record replaced or deleted since, until the next snapshot (after the
   * soak benchmark's last compaction, a whole backlog of webhook deliveries long delivered and pruned).
   */
  private async writeSnapshot(state: Snapshot): Promise<void> {
    await this.snapshot.write(state);
  }

  /**
   * The state file is no longer this process's: unwritable for good, no compaction starts, and the one who asked
   * (`onTakenOver`) is told. Commits waiting are refused by the next flush; one in flight, by its check.
   */
  private fence(error: StateTakenOverError): void {
    if (this.lost) return;
    this.lost = error;
    this.health.markLost(error);
    this.options.onTakenOver?.(error);
    this.kick();
  }

  /** Undoes every commit not on disk, newest first, and refuses each with `error`. */
  private rollBack(error: StoreWriteError): void {
    const undone = this.queue.splice(0);
    const first = undone[0];
    if (!first) return;
    for (let i = undone.length - 1; i >= 0; i--) undone[i]?.undo();
    this.state.rewind(first.seq - 1);
    this.generation++;
    this.health.markUnwritable(error);
    const replaced = undone.some((c) => c.changes === 'replaced');
    this.state.emit(replaced ? 'replaced' : undone.flatMap((c) => c.changes as readonly StoreChange[]));
    for (const c of undone) c.reject(error);
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
      .catch((error: unknown) => {
        // Refused because the files are another process's now: said once, by `onTakenOver`.
        if (!this.lost) this.options.onCompactionError?.(error);
      })
      .finally(() => {
        this.compaction = null;
      });
  }

  /**
   * Rewrites the snapshot from the state as it is now, once all of it is on disk, then drops the journal entries
   * it holds. If any of it is undone meanwhile, or a reset or import replaces the state, it gives up: the journal
   * still holds everything, and the next commit past the threshold tries again.
   */
  private async compact(): Promise<void> {
    const journal = this.journal;
    const generation = this.generation;
    const state = this.state.capture();
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

/**
 * Makes the journal a new file holding its whole entries: a torn last line (one the last run was writing when it
 * died, never acknowledged) is left out, and a previous holder that still runs, paused, and finishes the write it was
 * paused in appends to the old file, which nobody reads any more (see `Durability`). The folder is fsynced: the
 * appends to come go to the new file, and must not be lost to a rename undone by a power cut. A disk that refuses
 * the copy (full, over quota) keeps the journal the file it is, cut back to its whole entries: a start on a full disk
 * must work, and all it gives up is that isolation.
 */
async function freshJournal(fs: StoreFileSystem, walPath: string, found: StateFiles): Promise<void> {
  try {
    await replaceFile(fs, walPath, (wal) => writeFully(wal, found.journal));
  } catch (error) {
    if (!isWriteFailureCode((error as NodeJS.ErrnoException).code)) throw error;
    if (found.tornAt === null) return;
    const wal = await fs.open(walPath, 'a+');
    try {
      await wal.truncate(found.tornAt);
      await wal.datasync();
    } finally {
      await wal.close();
    }
    return;
  }
  await fs.syncDir(dirname(walPath)).catch(() => undefined);
}
