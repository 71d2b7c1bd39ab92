import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { type FileStat, isMissing, type StoreFile, type StoreFileSystem, writeFully } from './file-system.js';
import { type LockHolder, type LockProbes, systemProbes } from './lock-probes.js';
import { StateFileInUseError, StateLockPathError, StateTakenOverError } from './write-error.js';

/** Timing and probes of a lock; every field has a default fit for real use. */
export interface StateLockOptions {
  /** How the lock's holder is told (default: this machine's `/proc`, `os.hostname()`, the real clock). */
  probes?: LockProbes;
  /** How often the holder touches its lock's mtime, ms (default 2000). */
  heartbeatMs?: number;
  /** A lock whose mtime is older than this is stale when its holder cannot be checked, ms (default 5 heartbeats). */
  staleAfterMs?: number;
}

const HEARTBEAT_MS = 2000;
/** Five heartbeats: a holder whose event loop is held up by a few seconds (a loaded CI machine) keeps its lock. */
const STALE_HEARTBEATS = 5;

const holderSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  bootId: z.string().nullish(),
  pidNs: z.string().nullish(),
  startTime: z.string().nullish(),
});

function parseHolder(bytes: Buffer): LockHolder | null {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    if (!parsed.success) return null;
    const { pid, host, bootId, pidNs, startTime } = parsed.data;
    return { pid, host, bootId: bootId ?? null, pidNs: pidNs ?? null, startTime: startTime ?? null };
  } catch {
    return null;
  }
}

/** A lock file as seen at one moment: which file (device and inode), its bytes, and its last heartbeat. */
interface Seen {
  dev: number;
  ino: number;
  mtimeMs: number;
  bytes: Buffer;
  holder: LockHolder | null;
}

/** The lock path holds something that is no lock file (`found` says what), and is neither read nor moved. */
class NotALockFile extends Error {
  constructor(readonly found: string) {
    super(found);
  }
}

/** What a file that is not a regular one is, in words; null for a regular file. */
/** A `catch` of a read of the lock path: null where nothing is there, the error as it came otherwise. */
function orMissing(error: unknown): null {
  if (isMissing(error)) return null;
  throw error;
}

function notRegular(stat: FileStat): string | null {
  if (stat.isFile()) return null;
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

function sameFile(a: Seen, b: Seen): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.bytes.equals(b.bytes);
}

/** Lock files are a line of JSON; anything longer is not one, and only its start is read. */
const MAX_LOCK_BYTES = 4096;

/**
 * The lock file now, or null when there is none. Opened, then asked through the open file: an NFS client caches a
 * file's attributes for up to a minute but checks them again at each open, and a heartbeat missed that way would
 * make a live lock look stale. One open also gives the inode, mtime and bytes of one same file. A path that holds
 * no regular file throws a `NotALockFile`: the open does not wait on a FIFO (see `StoreFileSystem.open`), and
 * nothing is read from a folder or a device.
 */
async function look(fs: StoreFileSystem, path: string): Promise<Seen | null> {
  let file: StoreFile;
  try {
    file = await fs.open(path, 'r');
  } catch (error) {
    if (isMissing(error)) return null;
    // What opening a socket answers.
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') throw new NotALockFile('a socket');
    throw error;
  }
  try {
    const stat = await file.stat();
    const found = notRegular(stat);
    if (found !== null) throw new NotALockFile(found);
    const { size, dev, ino, mtimeMs } = stat;
    const buffer = Buffer.alloc(Math.min(size, MAX_LOCK_BYTES));
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, length);
      if (bytesRead <= 0) break;
      length += bytesRead;
    }
    const bytes = buffer.subarray(0, length);
    return { dev, ino, mtimeMs, bytes, holder: parseHolder(bytes) };
  } finally {
    await file.close();
  }
}

/**
 * Whether the holder runs, from this process's side. `live` and `dead` are certain; `uncertain` is a holder this
 * process cannot check (another host, another pid namespace, its own pid without a start time to compare, or a
 * lock file that does not say who holds it) and is judged by its heartbeat instead.
 */
export async function judgeHolder(
  holder: LockHolder | null,
  self: LockHolder,
  probes: LockProbes,
): Promise<'live' | 'dead' | 'uncertain'> {
  if (holder === null || holder.host !== self.host) return 'uncertain';
  // Same name, another boot: the machine restarted since, and every process of that boot is gone.
  if (holder.bootId !== null && self.bootId !== null && holder.bootId !== self.bootId) return 'dead';
  // Two containers can share a host name (host networking) but not their pids.
  if (holder.pidNs !== null && self.pidNs !== null && holder.pidNs !== self.pidNs) return 'uncertain';
  if (holder.pid === self.pid) {
    // Our own pid: a previous incarnation (a restarted container gets the same pid), unless the start time says
    // the holder is this very process (a second store on the same file).
    if (holder.startTime === null || self.startTime === null) return 'uncertain';
    return holder.startTime === self.startTime ? 'live' : 'dead';
  }
  const found = await probes.process(holder.pid);
  if (!found.running) return 'dead';
  // The pid runs, but a process that started at another time took it over after the holder died.
  if (holder.startTime !== null && found.startTime !== null && found.startTime !== holder.startTime)
    return 'dead';
  return 'live';
}

/**
 * One writer per state file: a lock file beside it (`FILE.lock`) that names its holder.
 *
 * Taking it is an exclusive create (`O_CREAT|O_EXCL`): of two processes, exactly one creates the file, with no
 * window between a check and a write. A process that finds it held judges the holder (`judgeHolder`): a live one
 * refuses the start (`StateFileInUseError`); a dead one's lock is stale. A holder it cannot check is judged by the
 * heartbeat: the holder touches the lock's mtime every `heartbeatMs` (through its open file, so a touch always
 * lands on its own lock), and a lock untouched for `staleAfterMs` is stale; one touched more recently is watched
 * for up to that long, and held if it is touched meanwhile. The age of a touch is read on this host's clock: hosts
 * that share a volume are taken to keep their clocks within a few seconds of each other (NTP). A holder whose
 * clock runs ahead is still found stale, by watching it for the whole window; one whose clock runs behind by more
 * than the window would be taken for dead. A lock path that holds no regular file (a FIFO, a folder, a device)
 * refuses the start (`StateLockPathError`) without waiting on it or moving it.
 *
 * Taking over a stale lock, race-free between starters: the stale lock is renamed aside to a name only this
 * starter uses (`FILE.lock.stale-<token>`). A rename moves whatever file is at the path at that instant, which may
 * no longer be the lock that was judged (another starter took it over first and made its own, or the holder
 * touched it meanwhile); so what was moved is compared with what was judged (same inode, same bytes, which carry
 * a random token per holder, same mtime). Only if it is the same is it deleted; otherwise it is put back with a
 * hard link, which, like the exclusive create, fails rather than replace a lock made meanwhile. Either way the
 * starter goes back to the exclusive create: of all the starters that moved the stale lock away, one creates the
 * new lock, and the others find it held. The one window left is a third starter that finds the path empty in the
 * instant a live lock is moved aside and not yet put back.
 *
 * The holder fences itself: a holder that was paused past the staleness window (`docker pause`, a suspended VM,
 * SIGSTOP) was rightly judged stale by the others, and once it runs again its lock may be another's, or gone (a
 * clean-up script removed it). So it checks that the lock path is still its own lock before the store acknowledges
 * a write (`confirm`: the same file, by device and inode, one `stat` of the path; the inode cannot be another
 * file's while this one holds it open) and at each heartbeat (the same file, and its bytes, which carry its random
 * token, read through a fresh open as for judging a lock). Once it is not, the lock is lost for good: `confirm`
 * throws a `StateTakenOverError`, the heartbeat stops, and the `onLost` listeners are told once.
 */
export class StateLock {
  private released = false;
  private touching: Promise<void> = Promise.resolve();
  private beating = false;
  private readonly timer: NodeJS.Timeout;
  /** Set once the lock is found not to be this process's: from then on, for good. */
  private lost: StateTakenOverError | null = null;
  /** The loss being described (what the path holds now), so that two checks that find it tell it once. */
  private losing: Promise<StateTakenOverError> | null = null;
  private readonly lostListeners: ((error: StateTakenOverError) => void)[] = [];

  private constructor(
    private readonly fs: StoreFileSystem,
    /** The lock file's path. */
    readonly path: string,
    private readonly file: StoreFile,
    private readonly bytes: Buffer,
    /** The lock file's device and inode: while `file` is open, no other file can have both. */
    private readonly own: { dev: number; ino: number },
    probes: LockProbes,
    heartbeatMs: number,
  ) {
    this.timer = setInterval(() => this.beat(probes), heartbeatMs);
    // The heartbeat must not keep a process alive that has nothing else to do.
    this.timer.unref();
  }

  /**
   * Takes the lock of the state file `statePath` (its real path), waiting at most `staleAfterMs` for a holder it
   * cannot check. `name` is the file as the user gave it, for the message of a refusal. Throws a
   * `StateFileInUseError` when another process holds it, a `StateLockPathError` when the lock path holds no regular
   * file; creates nothing then.
   */
  static async acquire(
    fs: StoreFileSystem,
    statePath: string,
    name: string,
    options: StateLockOptions = {},
  ): Promise<StateLock> {
    const path = `${statePath}.lock`;
    try {
      return await StateLock.take(fs, path, name, options);
    } catch (error) {
      if (error instanceof NotALockFile) throw new StateLockPathError(name, path, error.found);
      throw error;
    }
  }

  private static async take(
    fs: StoreFileSystem,
    path: string,
    name: string,
    options: StateLockOptions,
  ): Promise<StateLock> {
    const probes = options.probes ?? systemProbes;
    const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    const staleAfterMs = options.staleAfterMs ?? heartbeatMs * STALE_HEARTBEATS;
    const self = await probes.self();
    // Unique per holder, from the system's generator, not the sandbox's seeded one: two processes started with the
    // same seed must not write the same lock.
    const token = randomUUID();
    const bytes = Buffer.from(`${JSON.stringify({ ...self, token })}\n`);
    const refuse = (holder: LockHolder | null) =>
      new StateFileInUseError(
        name,
        path,
        holder?.pid ?? null,
        holder && holder.host !== self.host ? holder.host : null,
      );
    // Each turn ends in the lock, a refusal, or a change of the lock file seen (released, replaced, moved aside):
    // a bound on turns only guards against a file system that never settles.
    for (let turn = 0; turn < 100; turn++) {
      const created = await createExclusive(fs, path, bytes);
      if (created) return new StateLock(fs, path, created.file, bytes, created.own, probes, heartbeatMs);
      const seen = await look(fs, path);
      if (!seen) continue;
      const verdict = await judgeHolder(seen.holder, self, probes);
      if (verdict === 'live') throw refuse(seen.holder);
      let stale: Seen = seen;
      if (verdict === 'uncertain') {
        const watched = await watch(fs, path, seen, probes, staleAfterMs);
        if (watched === 'changed') continue;
        if (watched === 'refreshed') throw refuse(seen.holder);
        stale = watched;
      }
      await moveAside(fs, path, stale, `${path}.stale-${token}`);
    }
    throw refuse(null);
  }

  /**
   * Calls `listener` once, when the lock is found not to be this process's (at once if it was already): by a
   * heartbeat or by `confirm`, before the `confirm` that found it throws.
   */
  onLost(listener: (error: StateTakenOverError) => void): void {
    if (this.lost) listener(this.lost);
    else this.lostListeners.push(listener);
  }

  /**
   * Resolves while the lock path still holds this process's lock: the same file (its `stat`) holding our bytes, owner
   * token included (its content: a file number alone can be the one of our lock, moved aside and removed, given again
   * to the lock that took over). Throws a `StateTakenOverError` once it does not, and from then on at once. Another
   * error (EIO, EACCES) is thrown as it came: whether the lock is still ours cannot be told then, and the caller
   * refuses its write.
   */
  async confirm(): Promise<void> {
    if (this.lost) throw this.lost;
    const now = await this.fs.stat(this.path).catch(orMissing);
    if (now !== null && now.dev === this.own.dev && now.ino === this.own.ino) {
      const bytes = await this.fs.readFile(this.path).catch(orMissing);
      if (bytes?.equals(this.bytes)) return;
    }
    throw await this.lose();
  }

  /** Stops the heartbeat and removes the lock, if it is still this holder's. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    await this.touching;
    await this.file.close().catch(() => undefined);
    if (this.lost) return;
    // Removed only while it still holds our bytes: a lock another process took over after judging us stale is
    // theirs now.
    const now = await this.fs.readFile(this.path).catch(() => null);
    if (now?.equals(this.bytes)) await this.fs.remove(this.path);
  }

  /**
   * A heartbeat: the lock path is checked whole (the same file, and our bytes in it), then our lock touched through
   * its open file. One that finds the lock is no longer ours loses it; one that cannot read the path (EIO) cannot
   * tell, touches, and the next heartbeat asks again.
   */
  private beat(probes: LockProbes): void {
    if (this.beating || this.lost || this.released) return;
    this.beating = true;
    this.touching = (async () => {
      let ours = true;
      try {
        const seen = await look(this.fs, this.path);
        ours =
          seen !== null &&
          seen.dev === this.own.dev &&
          seen.ino === this.own.ino &&
          seen.bytes.equals(this.bytes);
      } catch (error) {
        if (error instanceof NotALockFile) ours = false;
      }
      if (!ours) {
        await this.lose();
        return;
      }
      const now = new Date(probes.now());
      await this.file.utimes(now, now);
    })()
      .catch(() => undefined)
      .finally(() => {
        this.beating = false;
      });
  }

  /** The lock is not ours: says what the path holds now, stops the heartbeat and tells the listeners, once. */
  private lose(): Promise<StateTakenOverError> {
    this.losing ??= (async () => {
      let holder: StateTakenOverError['holder'];
      try {
        const seen = await look(this.fs, this.path);
        holder = seen && { pid: seen.holder?.pid ?? null, host: seen.holder?.host ?? null };
      } catch {
        // Something that is no lock (a folder, a FIFO), or a path that cannot be read: there, saying nothing of whom.
        holder = { pid: null, host: null };
      }
      const error = new StateTakenOverError(this.path, holder);
      this.lost = error;
      clearInterval(this.timer);
      for (const listener of this.lostListeners.splice(0)) listener(error);
      return error;
    })();
    return this.losing;
  }
}

/** Creates the lock file holding `bytes` (with its device and inode), or answers null when one exists. */
async function createExclusive(
  fs: StoreFileSystem,
  path: string,
  bytes: Buffer,
): Promise<{ file: StoreFile; own: { dev: number; ino: number } } | null> {
  let file: StoreFile;
  try {
    file = await fs.open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
  try {
    await writeFully(file, bytes);
    await file.datasync();
    const { dev, ino } = await file.stat();
    return { file, own: { dev, ino } };
  } catch (error) {
    // Ours, just made: nobody else can have taken it over yet (it is younger than the staleness window).
    await file.close().catch(() => undefined);
    await fs.remove(path).catch(() => undefined);
    throw error;
  }
}

/**
 * Watches a lock whose holder cannot be checked. Answers `refreshed` once its heartbeat moves (held), `changed`
 * when the file was released or replaced (to be judged afresh), or the lock as last seen once it went
 * `staleAfterMs` without a heartbeat: by its mtime, or, should the holder's clock run ahead of ours, by watching
 * it that long.
 */
async function watch(
  fs: StoreFileSystem,
  path: string,
  seen: Seen,
  probes: LockProbes,
  staleAfterMs: number,
): Promise<Seen | 'refreshed' | 'changed'> {
  const since = probes.now();
  const poll = Math.max(1, Math.floor(staleAfterMs / 20));
  for (;;) {
    const now = probes.now();
    if (now - seen.mtimeMs > staleAfterMs || now - since >= staleAfterMs) return seen;
    await probes.wait(poll);
    const next = await look(fs, path);
    if (!next || !sameFile(next, seen)) return 'changed';
    if (next.mtimeMs !== seen.mtimeMs) return 'refreshed';
  }
}

/** Moves the stale lock `judged` away, if it is still the file at `path` (see `StateLock` for the scheme). */
async function moveAside(fs: StoreFileSystem, path: string, judged: Seen, aside: string): Promise<void> {
  try {
    await fs.rename(path, aside);
  } catch (error) {
    // Gone already: another starter moved it, or its holder released it.
    if (isMissing(error)) return;
    throw error;
  }
  const moved = await look(fs, aside);
  if (!moved) return;
  if (sameFile(moved, judged) && moved.mtimeMs === judged.mtimeMs) {
    await fs.remove(aside);
    return;
  }
  // Not the lock judged: a live one, put back unless a lock was made at the path meanwhile (then the path's lock
  // stands, and the one moved is dropped: see the window in `StateLock`).
  try {
    await fs.link(aside, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file system without hard links: a rename puts it back, replacing any lock made in that instant.
    if (code !== 'EEXIST') await fs.rename(aside, path);
  }
  await fs.remove(aside);
}
