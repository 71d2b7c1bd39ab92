import { constants } from 'node:fs';
import {
  link,
  mkdir,
  open as openFile,
  readFile,
  readlink,
  realpath,
  rename,
  stat,
  unlink,
} from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * What the store asks of a file's status: its size; its device and inode, which tell one file from another (the
 * state lock's own from one made in its place); its last modification (the lock's heartbeat); and its kind (a lock
 * path that holds a FIFO or a folder is refused, not read).
 */
export interface FileStat {
  size: number;
  dev: number;
  ino: number;
  mtimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}

/** An open file, as the store uses it: appends, reads at a position, fsync, truncation. */
export interface StoreFile {
  /** Writes `length` bytes of `data` from `offset` (at the end for a file opened `a+`); may write fewer. */
  write(data: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  /** Its status (see `FileStat`). */
  stat(): Promise<FileStat>;
  /** Sets the file's access and modification times (the state lock's heartbeat). */
  utimes(atime: Date, mtime: Date): Promise<void>;
  /** Sets its permission bits (a replacement takes those of the file it replaces). */
  chmod(mode: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The mode every file the store or a recording creates is given: readable and writable by its owner only. The state
 * holds every client's keys and the journal every request's body; nobody else on the machine needs to read them.
 */
export const OWNER_ONLY = 0o600;

/**
 * Every file operation of the store, in one place: the real one is `node:fs`, and the tests put a layer in
 * between that fails the way a full or broken disk does (short writes, ENOSPC, EIO on write or fsync).
 */
export interface StoreFileSystem {
  /**
   * `wx` creates the file, or fails with EEXIST when it exists (the state lock). `r` never waits: a FIFO opens at
   * once (non-blocking) instead of waiting for a writer, so that its `stat()` can tell it is no lock file. A file it
   * creates has mode `OWNER_ONLY` (less the process's umask); one that exists keeps its own.
   */
  open(path: string, flags: 'a+' | 'w' | 'r' | 'wx'): Promise<StoreFile>;
  /** The status of the file at `path` (links followed); an error with code ENOENT when there is none. */
  stat(path: string): Promise<FileStat>;
  /** The permission bits of the file at `path` (links followed); null when there is none. */
  modeOf(path: string): Promise<number | null>;
  /** The file's bytes; an error with code ENOENT when it does not exist. */
  readFile(path: string): Promise<Buffer>;
  rename(from: string, to: string): Promise<void>;
  /** Gives the file `existing` a second name; fails with EEXIST rather than replace a file at `to`. */
  link(existing: string, to: string): Promise<void>;
  /**
   * The path the symbolic links at `path` lead to, followed link by link: `path` itself when it is not a link, and
   * a dangling link's target (where the file is to be made).
   */
  resolveLinks(path: string): Promise<string>;
  /** Removes a file; one that does not exist is not an error. */
  remove(path: string): Promise<void>;
  mkdir(path: string): Promise<void>;
  /** Makes a rename in the folder durable. */
  syncDir(path: string): Promise<void>;
}

export const nodeFileSystem: StoreFileSystem = {
  // O_NONBLOCK changes nothing for a regular file, a folder or a device; a FIFO opened without it waits for a writer.
  open: (path, flags) =>
    openFile(path, flags === 'r' ? constants.O_RDONLY | constants.O_NONBLOCK : flags, OWNER_ONLY),
  stat: (path) => stat(path),
  modeOf: async (path) => {
    try {
      return (await stat(path)).mode & 0o7777;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  },
  readFile: (path) => readFile(path),
  rename: (from, to) => rename(from, to),
  link: (existing, to) => link(existing, to),
  resolveLinks: async (path) => {
    let current = path;
    // As many links as Linux follows (ELOOP past them): a loop of links ends here too.
    for (let hops = 0; hops < 40; hops++) {
      let target: string;
      try {
        target = await readlink(current);
      } catch (error) {
        // EINVAL: not a link. ENOENT: nothing there (yet), the file is made at this path.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EINVAL' || code === 'ENOENT') return current;
        throw error;
      }
      // A relative target is relative to the link's folder as it really is: `..` from a folder reached through a
      // link of its own leads elsewhere than the path's text says.
      current = resolve(await realpath(dirname(current)), target);
    }
    throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: 'ELOOP' });
  },
  remove: async (path) => {
    try {
      await unlink(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  },
  mkdir: (path) => makeDirectories(path),
  syncDir: async (path) => {
    const dir = await openFile(path, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  },
};

/**
 * `mkdir -p`, a level at a time. Node's own (`recursive: true`) tries again for ever when a folder that exists
 * refuses a child with ENOENT, as /proc does: `--data /proc/nope/db.json` hung the start without a word.
 */
export async function makeDirectories(path: string): Promise<void> {
  try {
    await mkdir(path);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && (await isDirectory(path))) return;
    const parent = dirname(path);
    if (code !== 'ENOENT' || parent === path) throw error;
    await makeDirectories(parent);
  }
  // The parent is there now: an ENOENT again is the folder's answer, and goes to the caller.
  try {
    await mkdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !(await isDirectory(path))) throw error;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `error` says the file is absent. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/**
 * Writes all of `data`: a write may take fewer bytes than asked (a disk filling up), so it goes on from where
 * the last one stopped. The first write that takes nothing, or fails, ends it with an error.
 */
export async function writeFully(file: StoreFile, data: Uint8Array): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await file.write(data, done, data.length - done);
    if (bytesWritten <= 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

/**
 * Replaces the file at `path` whole: `write` fills a temporary file beside it, which is fsynced and renamed over
 * it, so a crash leaves the old file or the new one. `beforeRename` runs last before the rename and may refuse it
 * by throwing (the state lock's check that the files are still this process's). On any failure the temporary file
 * is removed, the old file is left as it was, and the error is thrown as it came.
 */
export async function replaceFile(
  fs: StoreFileSystem,
  path: string,
  write: (file: StoreFile) => Promise<void>,
  beforeRename: () => Promise<void> = async () => {},
): Promise<void> {
  const tmp = `${path}.tmp`;
  try {
    // The file it replaces keeps its mode; a new one is its owner's only (as is a temporary file left by a crash).
    const mode = (await fs.modeOf(path)) ?? OWNER_ONLY;
    const file = await fs.open(tmp, 'w');
    try {
      await file.chmod(mode);
      await write(file);
      await file.datasync();
    } finally {
      await file.close();
    }
    await beforeRename();
    await fs.rename(tmp, path);
  } catch (error) {
    await fs.remove(tmp).catch(() => undefined);
    throw error;
  }
}
